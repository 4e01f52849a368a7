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
  writable: false,
  runAs: undefined,
});

describe('the pool', () => {
  it('bounds concurrent processes and reports queue time', async () => {
    const pool = new HookPool({ ...OPTS, maxConcurrentCommands: 2 });
    try {
      const runs = await Promise.all([0, 1, 2, 3].map(() => pool.runCommand(request('sleep 0.2'))));
      const queued = runs.map((r) => r.queuedMs).sort((x, y) => x - y);
      expect(queued[1]!).toBeLessThan(100);
      expect(queued[2]!).toBeGreaterThan(150);
    } finally {
      await pool.close();
    }
  });

  it('on close, ends queued runs as pool_closed and kills running ones, leaving no process or group', async () => {
    const pool = new HookPool({ ...OPTS, maxConcurrentCommands: 1 });
    const running = pool.runCommand(request('sleep 30'));
    const queued = pool.runCommand(request('sleep 30'));
    await new Promise((r) => setTimeout(r, 100));
    await pool.close();
    expect(await queued).toMatchObject({ ran: false, reason: 'pool_closed' });
    expect(await running).toMatchObject({ ran: false, reason: 'pool_closed' });
    expect(pool.liveProcessGroups()).toEqual([]);
    expect(await settleHookProcesses()).toEqual([]);
    expect(await pool.runCommand(request('true'))).toMatchObject({ ran: false, reason: 'pool_closed' });
  });
});
