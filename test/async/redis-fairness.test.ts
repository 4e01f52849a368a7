// Redis mode shares the queue's workers fairly between tenants, as the in-process queue does: a
// tenant with a backlog of slow async hooks does not make another tenant's hook wait behind all of
// them (each job's BullMQ priority is its place in its own tenant's backlog). Real redis-server
// (free loopback port, stopped by PID); the slow hooks wait on a FIFO (events, no sleeps).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';
import { completions } from '../helpers/async.js';
import { FifoFeed, FifoLines, mkfifo, waitingHook } from '../helpers/fifo.js';
import { hooksOn, input, printing, tempDir } from '../helpers/fixture.js';
import { RedisServer } from '../helpers/redis.js';

const dir = tempDir();
const startedFifo = mkfifo(dir, 'started');
const releaseFifo = mkfifo(dir, 'release');

let redis: RedisServer;
beforeAll(async () => {
  redis = await RedisServer.start();
});
afterAll(async () => {
  await redis.stop();
});

describe('Redis mode: tenants take turns', () => {
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
