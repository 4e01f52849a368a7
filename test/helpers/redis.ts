// A real redis-server for the tests: on a free loopback port, in a temp dir, with AOF persistence
// (appendfsync always), started and stopped by PID. Readiness is its "Ready to accept connections" line.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { tempDir } from './fixture.js';
import { HANG_MS, type LiveServer, startServe } from './serve.js';

/**
 * Why the Redis tests cannot run here (no redis-server), or undefined. HOOKWARDEN_REQUIRE_REDIS=1 (as
 * in CI) runs them anyway, so that a missing server fails instead of skipping.
 */
export const REDIS_MISSING: string | undefined =
  process.env.HOOKWARDEN_REQUIRE_REDIS === '1' || spawnSync('redis-server', ['--version']).status === 0
    ? undefined
    : 'redis-server is not installed (apt-get install -y redis-server)';

/** `describe` for tests that need a real redis-server: skipped, and said so, where there is none. */
export function describeRedis(name: string, fn: () => void): void {
  if (REDIS_MISSING !== undefined) console.warn(`${name}: skipped: ${REDIS_MISSING}`);
  describe.skipIf(REDIS_MISSING !== undefined)(name, fn);
}

const running = new Set<RedisServer>();
afterAll(async () => {
  await Promise.all([...running].map((r) => r.stop('SIGKILL')));
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export class RedisServer {
  #child: ChildProcess | undefined;
  #exited: Promise<void> = Promise.resolve();

  private constructor(
    readonly port: number,
    readonly dir: string,
    readonly password: string | undefined,
  ) {}

  get url(): string {
    const auth = this.password === undefined ? '' : `:${encodeURIComponent(this.password)}@`;
    return `redis://${auth}127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** `password`: required of clients (`requirepass`, in a config file: never on its command line). */
  static async start(options: { password?: string } = {}): Promise<RedisServer> {
    const r = new RedisServer(await freePort(), tempDir('hw-redis-'), options.password);
    await r.restart();
    return r;
  }

  /** Starts (again) on the same port and directory: the AOF there is loaded. */
  async restart(): Promise<void> {
    const conf = join(this.dir, 'redis.conf');
    writeFileSync(conf, this.password === undefined ? '' : `requirepass "${this.password}"\n`, {
      mode: 0o600,
    });
    const child = spawn(
      'redis-server',
      [
        conf,
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
        '--protected-mode',
        'yes',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.#child = child;
    running.add(this);
    this.#exited = new Promise((resolve) => child.once('exit', () => resolve()));
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), HANG_MS);
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${out}`));
      });
    });
  }

  /** Stops it by PID and waits for the process to end. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    process.kill(child.pid!, signal);
    await this.#exited;
    running.delete(this);
  }
}

/**
 * `hookwarden serve --config <config>` on 127.0.0.1 (a free port) with `redis` as its queue; `args`
 * adds flags (--auth, --queue-prefix…), `env` variables (HOOKWARDEN_QUEUE_LOCK_MS…).
 */
export function serveOnRedis(
  redis: RedisServer,
  config: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<LiveServer> {
  return startServe(['--config', config, '--listen', '127.0.0.1:0', '--queue', redis.url, ...args], {
    env: { ...process.env, ...env },
  });
}
