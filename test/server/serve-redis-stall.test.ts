// A job whose replicas keep dying under it: real `hookwarden serve` replicas on a real redis-server
// (free loopback port, stopped by PID), each SIGKILLed while the job's hook runs. BullMQ counts a
// stall each time the dead replica's lock lapses; past `maxStalledCount` (2) the next replica to take
// the job fails it without running it, and hookwarden completes it once: `not-run`, `job_stalled`,
// in the tenant's event stream, its place in maxAsyncQueued given back. Waits are on FIFO lines and
// Redis stream reads, never on sleeps.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';
import { waitingPair } from '../helpers/fifo.js';
import { hooksOn, input, tempDir, writeConfig } from '../helpers/fixture.js';
import { describeRedis, REDIS_MISSING, RedisServer, serveOnRedis } from '../helpers/redis.js';
import type { LiveServer } from '../helpers/serve.js';

const dir = tempDir();
const { hook, lines, feed } = waitingPair(dir);
const config = writeConfig(
  dir,
  'hooks.json',
  hooksOn('BeforeTool', [{ ...hook, name: 'slow', async: true }]),
);
const prefix = 'stall';

let redis: RedisServer;
beforeAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  redis = await RedisServer.start();
});
afterAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  lines.close();
  feed.close();
  await redis.stop();
});

const replica = (): Promise<LiveServer> =>
  serveOnRedis(redis, config, ['--queue-prefix', prefix], { HOOKWARDEN_QUEUE_LOCK_MS: '1000' });

describeRedis('a job whose replicas keep dying', () => {
  it('stalls three times, then completes once: not-run, job_stalled, its place given back', {
    timeout: 120_000,
  }, async () => {
    const producer = await createExecutor({
      config,
      limits: { maxAsyncQueued: 1 },
      onWarning: () => {},
      queue: { redis: redis.url, prefix, work: false },
    });
    const r = await producer.dispatch(
      'BeforeTool',
      input({ toolName: 'Bash', toolInput: { command: 'ls' } }),
    );
    const asyncId = r.hooks[0]!.asyncId!;
    // Three replicas in a row take the job and die (SIGKILL) while its hook runs.
    for (let i = 0; i < 3; i++) {
      const s = await replica();
      expect(await lines.next()).toBe('started');
      s.child.kill('SIGKILL');
      await s.done;
    }
    // The fourth finds it stalled too often: it fails the job without running it, and completes it.
    const last = await replica();
    const client = new Redis(redis.url);
    let completed: Record<string, unknown> | undefined;
    let cursor = '0-0';
    while (completed === undefined) {
      const got = (await client.xread('BLOCK', 60_000, 'STREAMS', `${prefix}:events:none`, cursor)) as
        | [string, [string, string[]][]][]
        | null;
      if (got === null) throw new Error('no completion within 60 s');
      for (const [id, fields] of got[0]![1]) {
        cursor = id;
        if (fields[1] === 'async.completed') completed = JSON.parse(fields[3]!);
      }
    }
    expect(completed).toMatchObject({ asyncId, outcome: 'not-run', error: { code: 'job_stalled' } });
    // Its place is free again: the next async hook is queued, not refused queue_full.
    const next = await producer.dispatch(
      'BeforeTool',
      input({ toolName: 'Bash', toolInput: { command: 'ls' } }),
    );
    expect(next.hooks[0]!.outcome).toBe('queued');
    expect(await lines.next()).toBe('started'); // and runs on the live replica
    feed.send();
    client.disconnect();
    await producer.close();
    await last.stop();
  });
});
