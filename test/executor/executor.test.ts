import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createExecutor, HookwardenError } from '../../src/index.js';
import { hooksOn, input, printing, tempDir, withExecutor } from '../helpers/fixture.js';
import { settleHookProcesses } from '../helpers/processes.js';

describe('createExecutor', () => {
  it('rejects bad options with the option name and the value', async () => {
    await expect(createExecutor({ root: '/nonexistent' })).rejects.toThrow(
      'root: expected an existing directory, got "/nonexistent"',
    );
    await expect(createExecutor({ limits: { maxHookCalls: 0 } })).rejects.toThrow(
      'limits.maxHookCalls: expected a positive integer, got 0',
    );
    await expect(createExecutor({ config: [42 as never] })).rejects.toThrow(
      'config[0]: expected a file path or a config object, got 42',
    );
    await expect(
      createExecutor({ config: { path: 'x.json', scope: 'global' as never } }),
    ).rejects.toBeInstanceOf(HookwardenError);
  });

  it('accepts config objects, file paths and mixtures', async () => {
    await withExecutor(
      { config: [hooksOn('SessionStart', [printing({ additionalContext: 'a' })])] },
      async (hw) => {
        expect((await hw.dispatch('SessionStart', input())).additionalContext).toBe('a');
      },
    );
  });

  it('registers trusted callbacks, replaces by name, unregisters, and applies their deadline', async () => {
    await withExecutor({}, async (hw) => {
      const off = hw.register({
        event: 'PreToolUse',
        name: 'guard',
        matcher: 'Bash',
        handler: (i) => (i.toolName === 'Bash' ? { decision: 'deny', reason: 'r1' } : undefined),
      });
      expect((await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }))).reason).toBe('r1');
      expect((await hw.dispatch('BeforeTool', input({ toolName: 'Read' }))).decision).toBe('passthrough');
      const off2 = hw.register({
        event: 'BeforeTool',
        name: 'guard',
        handler: () => ({ decision: 'deny', reason: 'r2' }),
      });
      expect((await hw.dispatch('BeforeTool', input({ toolName: 'Read' }))).reason).toBe('r2');
      off(); // the replaced registration is gone already: a no-op
      expect((await hw.dispatch('BeforeTool', input({ toolName: 'Read' }))).reason).toBe('r2');
      off2();
      expect((await hw.dispatch('BeforeTool', input({ toolName: 'Read' }))).decision).toBe('passthrough');
      hw.register({
        event: 'BeforeTool',
        name: 'slow',
        timeoutMs: 100,
        handler: () => new Promise(() => {}),
      });
      hw.register({
        event: 'BeforeTool',
        name: 'throws',
        handler: () => {
          throw new TypeError('oops');
        },
      });
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Read' }));
      expect(r.hooks.map((h) => [h.id, h.outcome, h.error?.code])).toEqual([
        ['slow', 'timeout', 'timeout'],
        ['throws', 'error', 'runtime_error'],
      ]);
    });
  });

  it('gives trusted callbacks a frozen copy of the input', async () => {
    await withExecutor({}, async (hw) => {
      let frozen = false;
      hw.register({
        event: 'BeforeTurn',
        name: 'peek',
        handler: (i) => {
          frozen = Object.isFrozen(i);
          return undefined;
        },
      });
      const original = input({ prompt: 'hi' });
      await hw.dispatch('BeforeTurn', original);
      expect(frozen).toBe(true);
      expect(Object.isFrozen(original)).toBe(false);
    });
  });

  it('rejects invalid trusted registrations', async () => {
    await withExecutor({}, async (hw) => {
      expect(() => hw.register({ event: 'Nope', name: 'x', handler: () => undefined })).toThrow(
        /unknown event "Nope"/,
      );
      expect(() => hw.register({ event: 'BeforeTool', name: '', handler: () => undefined })).toThrow(
        /name: expected a non-empty name/,
      );
      expect(() => hw.register({ event: 'BeforeTool', name: 'x', handler: 'no' as never })).toThrow(
        /handler: expected a function/,
      );
    });
  });

  it('close() kills running hooks, is idempotent, and dispatch() afterwards rejects', async () => {
    const hw = await createExecutor({
      config: hooksOn('SessionStart', [{ command: 'sleep 30' }]),
      onWarning: () => {},
    });
    const started = new Promise((r) => hw.on('hook.started', r));
    const running = hw.dispatch('SessionStart', input());
    await started;
    await Promise.all([hw.close(), hw.close()]);
    const r = await running;
    expect(r.hooks[0]!.error?.code).toMatch(/^(pool_closed|aborted)$/);
    await expect(hw.dispatch('SessionStart', input())).rejects.toMatchObject({ code: 'closed' });
    expect(await settleHookProcesses()).toEqual([]);
  });

  it('writes one audit line per executed hook, with metadata only', async () => {
    const dir = tempDir();
    const file = join(dir, 'audit.jsonl');
    const config = hooksOn('BeforeTool', [
      printing({ decision: 'deny', reason: 'SECRET-REASON' }),
      printing({}),
    ]);
    await withExecutor({ config: { tenants: { t1: config } }, audit: file }, async (hw) => {
      await hw.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: { command: 'SECRET-INPUT' } }), {
        tenant: 't1',
      });
    });
    const text = readFileSync(file, 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(Object.keys(lines[0]).sort()).toEqual([
      'containment',
      'deadlineMs',
      'event',
      'hookId',
      'outcome',
      'prev',
      'queuedMs',
      'runMs',
      'scope',
      'seq',
      'tenant',
      'time',
      'type',
    ]);
    expect(lines[0]).toMatchObject({
      event: 'BeforeTool',
      outcome: 'deny',
      scope: 'user', // a tenant's hooks run at user scope
      type: 'command',
      tenant: 't1',
      containment: 'contained',
    });
    expect(text).not.toContain('SECRET');
  });
});
