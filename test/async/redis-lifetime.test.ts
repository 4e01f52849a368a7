// Redis mode's process lifetime, against a real redis-server (free loopback port, stopped by PID):
// close() while a replica runs an async hook kills the hook (no process outlives the executor) and
// hands the job back without using an attempt, so another replica runs it and completes it once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';
import { completions } from '../helpers/async.js';
import { FifoFeed, FifoLines, mkfifo, waitingHook } from '../helpers/fifo.js';
import { hooksOn, input, tempDir } from '../helpers/fixture.js';
import { hookProcesses, settleHookProcesses } from '../helpers/processes.js';
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

describe('Redis mode: close() mid-job', () => {
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
