// Redis mode in the library, against a real redis-server started by the test: jobs enqueued by one
// executor run on another (the same configuration), survive a Redis restart from its AOF, and
// while Redis is down async hooks fail per their onError (queue_unavailable) and synchronous
// dispatches keep working. Waits are on events only.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';
import { completions } from '../helpers/async.js';
import { hooksOn, input, printing } from '../helpers/fixture.js';
import { describeRedis, REDIS_MISSING, RedisServer } from '../helpers/redis.js';

const ev = () => input({ toolName: 'Bash', toolInput: { command: 'ls' } });
const config = hooksOn('BeforeTool', [
  printing({ decision: 'allow' }, { name: 'sync' }),
  printing({ decision: 'deny', reason: 'late no' }, { name: 'bg', asyncRewake: true }),
]);

let redis: RedisServer;
beforeAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  redis = await RedisServer.start();
});
afterAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  await redis.stop();
});

describeRedis('Redis mode (library)', () => {
  it('an enqueue-only executor queues; a worker executor runs each job once; jobs survive a Redis restart (AOF)', async () => {
    const prefix = 'aof';
    const producer = await createExecutor({
      config,
      queue: { redis: redis.url, prefix, work: false },
      onWarning: () => {},
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await producer.dispatch('BeforeTool', ev());
      expect(r.decision).toBe('allow');
      ids.push(r.hooks.find((h) => h.outcome === 'queued')!.asyncId!);
    }
    await producer.close();
    // Redis dies hard (SIGKILL: no shutdown save) and comes back from its append-only file.
    await redis.stop('SIGKILL');
    await redis.restart();
    const worker = await createExecutor({ config, queue: { redis: redis.url, prefix }, onWarning: () => {} });
    const done = await completions(worker, 3);
    expect(done.map((c) => c.asyncId).sort()).toEqual([...ids].sort());
    expect(done.every((c) => c.outcome === 'deny' && c.attempts === 1)).toBe(true);
    await worker.close();
    // Each completion is in the tenant-less stream exactly once.
    const client = new Redis(redis.url);
    const entries = (await client.xrange(`${prefix}:events:none`, '-', '+')) as [string, string[]][];
    const completed = entries
      .filter(([, f]) => f[1] === 'async.completed')
      .map(([, f]) => JSON.parse(f[3]!).asyncId);
    expect(completed.sort()).toEqual([...ids].sort());
    client.disconnect();
  });

  it('while Redis is down: sync hooks answer, async hooks fail queue_unavailable per their onError', async () => {
    const down = await RedisServer.start();
    const cfg = hooksOn('BeforeTool', [
      printing({ decision: 'allow' }, { name: 'sync' }),
      printing({}, { name: 'open', async: true }),
      printing({}, { name: 'closed', async: true, onError: 'deny' }),
    ]);
    const hw = await createExecutor({
      config: cfg,
      queue: { redis: down.url, prefix: 'down' },
      onWarning: () => {},
    });
    try {
      const up = await hw.dispatch('BeforeTool', ev());
      expect(up.hooks.map((h) => h.outcome)).toEqual(['allow', 'queued', 'queued']);
      await down.stop('SIGKILL');
      const r = await hw.dispatch('BeforeTool', ev());
      expect(r.decision).toBe('deny');
      expect(r.hooks.map((h) => [h.id, h.outcome, h.error?.code])).toEqual([
        ['sync', 'allow', undefined],
        ['open', 'error', 'queue_unavailable'],
        ['closed', 'error', 'queue_unavailable'],
      ]);
    } finally {
      await hw.close();
    }
  });
});
