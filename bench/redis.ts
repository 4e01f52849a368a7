// A redis-server for the benchmarks (a free loopback port, a temp dir, no persistence; started here
// and stopped by PID; undefined when redis-server is not installed: the Redis rows are left out),
// and `hookwarden serve` replicas on it (the built CLI).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';

const BIN = fileURLToPath(new URL('../../bin/hookwarden', import.meta.url));

export interface BenchRedis {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<BenchRedis | undefined> {
  if (spawnSync('redis-server', ['--version']).status !== 0) return undefined;
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const exited = new Promise((r) => child.once('exit', r));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', () => reject(new Error(`redis-server exited: ${out}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      process.kill(child.pid!, 'SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts `serve` (of this build, or of `bin`) with the Redis queue; resolves once it prints its listening line. */
export async function startReplica(
  config: string,
  redis: string,
  prefix: string,
  bin = BIN,
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--config', config, '--listen', '127.0.0.1:0', '--queue', redis, '--queue-prefix', prefix],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('"listening"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code} before listening: ${out}`)));
  });
  return child;
}

export async function stopReplica(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await gone;
}

/**
 * Waits until `count` async.completed events are in the stream `key` (XREAD BLOCK on `client`, which
 * it holds meanwhile); resolves with the time of the last. Fails after `blockMs` without one.
 */
export async function completions(
  client: Redis,
  key: string,
  count: number,
  blockMs = 60_000,
): Promise<number> {
  let seen = 0;
  let last = '0-0';
  while (seen < count) {
    const r = (await client.xread('BLOCK', blockMs, 'STREAMS', key, last)) as
      | [string, [string, string[]][]][]
      | null;
    if (r === null) throw new Error(`no completion for ${blockMs / 1000} s (${seen} of ${count})`);
    for (const [id, fields] of r[0]![1]) {
      last = id;
      if (fields[1] === 'async.completed') seen++;
    }
  }
  return performance.now();
}
