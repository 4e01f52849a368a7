// Redis trouble is logged and /readyz follows it: a real `hookwarden serve` on a real redis-server
// (free loopback port, stopped by PID). Losing Redis, a restart that refuses the service's password,
// and Redis coming back are each one warning line with the cause, however many reconnect attempts
// lie between; a Redis that stops answering on an open connection (SIGSTOP) turns /readyz "down"
// and back. Waits are on log lines, Redis's own ACL log and /readyz answers, never on sleeps.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';
import { RedisServer } from '../helpers/redis.js';
import { get, type LiveServer, startServe } from '../helpers/serve.js';

const PASSWORD = 'right-pass-7f3a';
const WRONG = 'changed-pass-19c2';
const dir = tempDir();
const config = writeConfig(dir, 'hooks.json', hooksOn('SessionStart', [{ argv: ['/bin/true'] }]));

let redis: RedisServer;
let server: LiveServer;
beforeAll(async () => {
  redis = await RedisServer.start({ password: PASSWORD });
  // The URL (with its password) from the environment, as deployed: never on the command line.
  server = await startServe(['--config', config, '--listen', '127.0.0.1:0'], {
    env: { ...process.env, HOOKWARDEN_QUEUE_URL: redis.url },
  });
});
afterAll(async () => {
  if (redis.pid !== undefined) process.kill(redis.pid, 'SIGCONT');
  await server?.stop();
  await redis.stop();
});

const warnings = (text: string) =>
  server.logs().filter((l) => l.level === 'warn' && String(l.msg).includes(text));
const redisState = async () =>
  ((await get(`${server.url}/readyz`)).body as { queue?: { redis?: string } }).queue?.redis;
/** Asks /readyz until it says `state` (each answer is an event; the suite's timeout bounds a hang). */
async function readyzSays(state: 'up' | 'down'): Promise<void> {
  while ((await redisState()) !== state) await new Promise((r) => setTimeout(r, 25));
}

describe('Redis trouble', () => {
  it('loss, a refused password and the return are each logged once, with the cause', {
    timeout: 120_000,
  }, async () => {
    expect(await redisState()).toBe('up');
    await redis.stop('SIGKILL');
    const lost = await server.waitForLog((l) => String(l.msg).includes('Redis is not answering'));
    expect(lost).toMatchObject({ level: 'warn', file: '<redis>', path: 'queue.redis' });
    expect(String(lost.msg)).toMatch(/cause: .*(ECONNREFUSED|ECONNRESET|closed)/);
    await readyzSays('down');

    // Back, but with another password: the service's is refused on every attempt.
    await redis.restart(WRONG);
    const refused = await server.waitForLog((l) => String(l.msg).includes('refused hookwarden'));
    expect(String(refused.msg)).toMatch(/cause: .*WRONGPASS/);
    // Several refused attempts, counted by Redis itself, and still one line.
    const admin = new Redis(`redis://:${WRONG}@127.0.0.1:${redis.port}`, { lazyConnect: true });
    await admin.connect();
    const attempts = async () => {
      const log = (await admin.call('ACL', 'LOG')) as unknown[][];
      return log.reduce((n, entry) => {
        const i = entry.indexOf('count');
        return n + (i >= 0 ? Number(entry[i + 1]) : 0);
      }, 0);
    };
    while ((await attempts()) < 3) await new Promise((r) => setTimeout(r, 50));
    admin.disconnect();
    expect(await redisState()).toBe('down');

    await redis.stop();
    await redis.restart(PASSWORD);
    const back = await server.waitForLog((l) => String(l.msg).includes('Redis is answering again'));
    expect(back.level).toBe('warn');
    await readyzSays('up');
    // Lines are batched (up to 250 ms late): one more line after these flushes them all.
    await get(`${server.url}/healthz`);
    await server.waitForLog((l) => l.route === '/healthz');
    expect(warnings('Redis is not answering')).toHaveLength(1);
    expect(warnings('refused hookwarden')).toHaveLength(1);
    expect(warnings('Redis is answering again')).toHaveLength(1);
    // The password is in the URL the service was given, never in what it logs.
    expect(server.stderr()).not.toContain(PASSWORD);
    expect(server.stderr()).not.toContain(WRONG);
  });

  it('a Redis that stops answering on an open connection turns /readyz down, then up again', {
    timeout: 120_000,
  }, async () => {
    await readyzSays('up');
    const before = warnings('Redis is not answering').length;
    process.kill(redis.pid!, 'SIGSTOP');
    await readyzSays('down');
    const silent = await server.waitForLogs(
      (l) => String(l.msg).includes('Redis is not answering'),
      before + 1,
    );
    expect(String(silent.at(-1)!.msg)).toMatch(/did not answer a PING/);
    process.kill(redis.pid!, 'SIGCONT');
    await readyzSays('up');
  });
});
