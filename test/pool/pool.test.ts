import { describe, expect, it } from 'vitest';
import { HookPool } from '../../src/pool/pool.js';
import { settleHookProcesses } from '../helpers/processes.js';

const OPTS = {
  maxConcurrentCommands: 1,
  killGraceMs: 100,
  jsThreads: 1,
  jsHeapCeilingBytes: 64 << 20,
  jsBackstopGraceMs: 1000,
};

const request = (command: string) => ({
  program: { kind: 'shell' as const, command },
  cwd: '/tmp',
  env: { HOOK_EVENT: 'test' },
  inheritEnv: [],
  stdin: '{}',
  deadlineMs: 10_000,
  maxOutputBytes: 1 << 20,
  rlimits: { cpuSeconds: 0, openFiles: 256, fileSizeBytes: 1 << 20, addressSpaceBytes: undefined },
  isolation: 'process' as const,
  containment: 'prefer' as const,
  writable: false,
  runAs: undefined,
});

/** Resolves after `n` calls of the returned callback. */
function counter(n: number) {
  let count = 0;
  let reached!: () => void;
  const done = new Promise<void>((r) => {
    reached = r;
  });
  return {
    done,
    get count() {
      return count;
    },
    tick: () => {
      count++;
      if (count === n) reached();
    },
  };
}

describe('the pool', () => {
  it('runs at most maxConcurrentCommands processes at once; the rest wait for a turn', async () => {
    const pool = new HookPool({ ...OPTS, maxConcurrentCommands: 2 });
    const started = counter(2);
    const runs = [0, 1, 2, 3].map(() => pool.command.run(request('sleep 30'), { onStart: started.tick }));
    try {
      await started.done;
      // The two running never end by themselves: no third run can have a turn, however long we look.
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
      expect(started.count).toBe(2);
    } finally {
      await pool.close();
    }
    const results = await Promise.all(runs);
    expect(results.map((r) => r.ran)).toEqual([false, false, false, false]);
    expect(results.map((r) => !r.ran && r.error.code)).toEqual([
      'pool_closed',
      'pool_closed',
      'pool_closed',
      'pool_closed',
    ]);
  });

  it('on close, refuses queued runs (not started) and stops running ones, leaving no process or group', async () => {
    const pool = new HookPool({ ...OPTS, maxConcurrentCommands: 1 });
    const started = counter(1);
    const running = pool.command.run(request('sleep 30'), { onStart: started.tick });
    const queued = pool.command.run(request('sleep 30'));
    await started.done;
    await pool.close();
    expect(await queued).toMatchObject({ ran: false, error: { code: 'pool_closed' } });
    expect(await queued).not.toHaveProperty('started');
    expect(await running).toMatchObject({ ran: false, error: { code: 'pool_closed' } });
    expect(pool.command.liveProcessGroups()).toEqual([]);
    expect(await settleHookProcesses()).toEqual([]);
    expect(await pool.command.run(request('true'))).toMatchObject({
      ran: false,
      error: { code: 'pool_closed' },
    });
  });

  it('after close, a QuickJS worker cannot be started again (no pool that is never destroyed)', async () => {
    const pool = new HookPool(OPTS);
    await pool.close();
    await expect(pool.js.stats()).rejects.toThrow(/closed/);
    expect(pool.js.threads).toBe(0);
  });
});
