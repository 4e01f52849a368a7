// The async jobs' lock by default (no HOOKWARDEN_QUEUE_LOCK_MS): a real `hookwarden serve` replica on a
// real redis-server (free loopback port, stopped by PID) holds a running job's lock for at most 5 s
// and renews it before it lapses; SIGKILLed, its job runs on another replica (the lock lapses within
// 5 s and lapsed locks are looked for every 2.5 s: bench/async-failover.ts measures how soon). Waits
// are on FIFO lines and on Redis's own state, not on sleeps.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FifoFeed, FifoLines, mkfifo, waitingHook } from '../helpers/fifo.js';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';
import { describeRedis, REDIS_MISSING, RedisServer, serveOnRedis } from '../helpers/redis.js';
import { type LiveServer, post } from '../helpers/serve.js';
import { SseStream } from '../helpers/sse.js';

const dir = tempDir();
const startedFifo = mkfifo(dir, 'started');
const releaseFifo = mkfifo(dir, 'release');
const config = writeConfig(
  dir,
  'hooks.json',
  hooksOn('BeforeTool', [{ ...waitingHook(startedFifo, releaseFifo), name: 'slow', async: true }]),
);
const bash = { toolName: 'Bash', toolInput: { command: 'ls' } };

let redis: RedisServer;
let client: Redis;
const live: LiveServer[] = [];
const replica = async () => {
  const s = await serveOnRedis(redis, config, ['--queue-prefix', 'lock']);
  live.push(s);
  return s;
};
beforeAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  redis = await RedisServer.start();
  client = new Redis(redis.url);
});
afterAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  await Promise.all(live.map((s) => s.stop()));
  client.disconnect();
  await redis.stop();
});

describeRedis("an async job's lock by default", () => {
  it('is at most 5 s, renewed before it lapses; a SIGKILLed replica leaves the job to another', {
    timeout: 120_000,
  }, async () => {
    const lines = new FifoLines(startedFifo);
    const release = new FifoFeed(releaseFifo);
    try {
      const a = await replica();
      const r = await post(`${a.url}/v1/dispatch/BeforeTool`, undefined, bash);
      expect(r.status).toBe(200);
      const id = r.body.hooks[0].asyncId as string;
      expect(await lines.next()).toBe('started');
      const lock = `lock:async-hooks:${id}:lock`;
      const first = await client.pttl(lock);
      expect(first).toBeGreaterThan(0);
      expect(first).toBeLessThanOrEqual(5_000);
      // Renewed: its time to live goes up again before it ever reaches 0.
      for (let last = first; ; ) {
        const now = await client.pttl(lock);
        expect(now, 'the lock lapsed before it was renewed').toBeGreaterThan(0);
        if (now > last) break;
        last = now;
        await new Promise((res) => setTimeout(res, 20));
      }
      process.kill(a.child.pid!, 'SIGKILL');
      await a.done;
      const b = await replica();
      const events = await SseStream.open(b.url, undefined, '0-0');
      expect(await lines.next()).toBe('started'); // run again, on B
      release.send();
      expect((await events.next('async.completed')).data).toMatchObject({ asyncId: id, outcome: 'allow' });
      events.close();
    } finally {
      release.send();
      release.send();
      lines.close();
      release.close();
    }
  });
});
