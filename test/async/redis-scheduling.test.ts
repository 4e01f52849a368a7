// Redis mode's scheduling and lifetime, against a real redis-server (free loopback port, stopped by
// PID); slow hooks wait on a FIFO (events, no sleeps). Tenants share the queue's workers fairly, as
// with the in-process queue: a tenant's backlog of slow async hooks does not make another tenant's
// hook wait behind all of it (each job's BullMQ priority is its place in its tenant's backlog).
// close() while a replica runs an async hook kills the hook (no process outlives the executor) and
// hands the job back without using an attempt: another replica runs it and completes it once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';
import { completions } from '../helpers/async.js';
import { FifoFeed, FifoLines, mkfifo, waitingHook } from '../helpers/fifo.js';
import { hooksOn, input, printing, tempDir } from '../helpers/fixture.js';
import { hookProcesses, settleHookProcesses } from '../helpers/processes.js';
import { describeRedis, REDIS_MISSING, RedisServer } from '../helpers/redis.js';

const dir = tempDir();
const startedFifo = mkfifo(dir, 'started');
const releaseFifo = mkfifo(dir, 'release');

let redis: RedisServer;
beforeAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  redis = await RedisServer.start();
});
afterAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  await redis.stop();
});

describeRedis('Redis mode: tenants take turns', () => {
  it("a tenant's backlog does not hold another tenant's async hook behind all of it", async () => {
    const started = new FifoLines(startedFifo);
    const release = new FifoFeed(releaseFifo);
    const hw = await createExecutor({
      config: {
        tenants: {
          a: hooksOn('BeforeTool', [{ ...waitingHook(startedFifo, releaseFifo), name: 'slow', async: true }]),
          b: hooksOn('BeforeTool', [printing({}, { name: 'fast', async: true })]),
        },
      },
      queue: { redis: redis.url, prefix: 'fair', concurrency: 1 },
      onWarning: () => {},
    });
    try {
      const ev = input({ toolName: 'Bash', toolInput: {} });
      const done = completions(hw, 4);
      for (let i = 0; i < 3; i++) await hw.dispatch('BeforeTool', ev, { tenant: 'a' });
      await started.next(); // a's first job runs; its other two wait
      await hw.dispatch('BeforeTool', ev, { tenant: 'b' });
      for (let i = 0; i < 3; i++) release.send();
      const order = (await done).map((c) => c.tenant);
      expect(order).toEqual(['a', 'b', 'a', 'a']);
    } finally {
      await hw.close();
      started.close();
      release.close();
    }
  });
});

describeRedis('Redis mode: close() mid-job', () => {
  it('kills the running hook and leaves the job to another replica, which completes it once', async () => {
    const started = new FifoLines(startedFifo);
    const release = new FifoFeed(releaseFifo);
    const config = hooksOn('BeforeTool', [
      { ...waitingHook(startedFifo, releaseFifo), name: 'slow', async: true },
    ]);
    const queue = { redis: redis.url, prefix: 'lifetime' };
    const first = await createExecutor({ config, queue, onWarning: () => {} });
    let second: Awaited<ReturnType<typeof createExecutor>> | undefined;
    try {
      const r = await first.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: {} }));
      const asyncId = r.hooks[0]!.asyncId;
      await started.next();
      expect(hookProcesses()).toHaveLength(1);
      await first.close();
      expect(await settleHookProcesses()).toEqual([]);
      second = await createExecutor({ config, queue, onWarning: () => {} });
      const done = completions(second, 1);
      await started.next(); // the second replica runs it
      release.send();
      const [c] = await done;
      expect(c).toMatchObject({ asyncId, outcome: 'allow', attempts: 1 });
    } finally {
      await first.close();
      await second?.close();
      started.close();
      release.close();
    }
    expect(await settleHookProcesses()).toEqual([]);
  });
});
