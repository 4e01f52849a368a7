// Redis mode's failure paths in the library, against a real redis-server started by the test (free
// loopback port, temp dir, stopped by PID): a failed run is retried by BullMQ with the hook's
// backoff and completes once; a job no replica has the spec for completes `config_mismatch`, not
// run; `maxAsyncQueued` is one count across replicas. Waits are on events only.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExecutor, type Executor } from '../../src/index.js';
import { completions } from '../helpers/async.js';
import { hooksOn, input, printing, tempDir } from '../helpers/fixture.js';
import { describeRedis, REDIS_MISSING, RedisServer } from '../helpers/redis.js';

const ev = () => input({ toolName: 'Bash', toolInput: { command: 'ls' } });
const quiet = { onWarning: () => {} };

let redis: RedisServer;
const open: Executor[] = [];
const executor = async (options: Parameters<typeof createExecutor>[0]) => {
  const e = await createExecutor({ ...quiet, ...options });
  open.push(e);
  return e;
};
beforeAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  redis = await RedisServer.start();
});
afterAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  await Promise.all(open.map((e) => e.close()));
  await redis.stop();
});

describeRedis('Redis mode: failures', () => {
  it('a failed run is retried with the hook backoff and completes once, with the attempts counted', async () => {
    const marker = join(tempDir(), 'first-attempt');
    // Fails (exit 1) the first time, when the marker is not there yet; answers {} the second time.
    const flaky = {
      type: 'command',
      argv: ['/bin/sh', '-c', 'if [ -e "$0" ]; then echo "{}"; else : > "$0"; exit 1; fi', marker],
      name: 'flaky',
      async: true,
      retries: 2,
      retryBackoffMs: 50,
      retryBackoff: 'fixed',
    };
    const config = hooksOn('BeforeTool', [flaky]);
    const worker = await executor({ config, queue: { redis: redis.url, prefix: 'retry' } });
    const done = completions(worker, 1);
    const r = await worker.dispatch('BeforeTool', ev());
    const queued = r.hooks.find((h) => h.id === 'flaky')!;
    expect(queued.outcome).toBe('queued');
    const [c] = await done;
    expect(existsSync(marker)).toBe(true); // the first attempt ran and failed
    expect(c).toMatchObject({ asyncId: queued.asyncId, attempts: 2 });
    expect(c!.error).toBeUndefined();
    expect(c!.outcome).not.toBe('error');
  });

  it('a job whose spec no replica has completes config_mismatch, not run, after mismatchTimeoutMs', async () => {
    const prefix = 'mismatch';
    const producer = await executor({
      config: hooksOn('BeforeTool', [printing({}, { name: 'bg', async: true })]),
      queue: { redis: redis.url, prefix, work: false },
    });
    // Same hook name, another command: another spec digest.
    const worker = await executor({
      config: hooksOn('BeforeTool', [printing({ decision: 'deny' }, { name: 'bg', async: true })]),
      queue: { redis: redis.url, prefix, mismatchTimeoutMs: 500 },
    });
    const done = completions(worker, 1);
    const r = await producer.dispatch('BeforeTool', ev());
    const [c] = await done;
    expect(c).toMatchObject({ asyncId: r.hooks[0]!.asyncId, outcome: 'not-run', attempts: 0 });
    expect(c!.error?.code).toBe('config_mismatch');
    expect(c!.error?.message).toContain('configurations differ');
  });

  it('maxAsyncQueued is one count across replicas: the replica that goes over answers queue_full', async () => {
    const prefix = 'quota';
    // Enqueue-only replicas (no worker takes the jobs): every job stays queued and counted.
    const config = hooksOn('BeforeTool', [printing({}, { name: 'bg', async: true })]);
    const options = {
      config,
      limits: { maxAsyncQueued: 3 },
      queue: { redis: redis.url, prefix, work: false },
    };
    const a = await executor(options);
    const b = await executor(options);
    const outcomes = [];
    for (const e of [a, b, a, b, a]) {
      const h = (await e.dispatch('BeforeTool', ev())).hooks[0]!;
      outcomes.push(h.outcome === 'queued' ? 'queued' : h.error?.code);
    }
    expect(outcomes).toEqual(['queued', 'queued', 'queued', 'queue_full', 'queue_full']);
    // A worker drains them: the places are freed, and the next job is queued again.
    const worker = await executor({ ...options, queue: { redis: redis.url, prefix } });
    await completions(worker, 3);
    expect((await a.dispatch('BeforeTool', ev())).hooks[0]!.outcome).toBe('queued');
  });
});
