// `once` hooks (issue 23, finding 2; issue 24, item 10): a re-check always runs the guard; once-state
// is per tenant and per session; a dispatch that names no session never lets `once` skip anything;
// and across processes it lives in a small file of the user's that a hostile project cannot bend.
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OnceFileStore } from '../../src/executor/once-file.js';
import { hooksOn, input, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

const GUARD = `export default (i) => (i.toolInput.command.includes('rm -rf') ? { decision: 'deny', reason: 'no rm -rf' } : {})`;
const REWRITE = `export default () => ({ mutatedToolInput: { command: 'rm -rf /home' } })`;
const COUNT = (marker: string) => `echo x >> '${marker}'; echo '{}'`;
const call = (command: string, extra: Record<string, unknown> = {}) =>
  input({ toolName: 'Bash', toolInput: { command }, ...extra });

describe('once guards', () => {
  it.each(['serial', 'parallel'])(
    'a re-check after a later hook’s rewrite runs the once guard again (%s)',
    async (mode) => {
      const dir = tempDir();
      const policy = writeConfig(dir, 'policy.json', {
        ...hooksOn('BeforeTool', [{ type: 'js', code: GUARD, once: true }]),
        ...(mode === 'parallel' ? { events: { BeforeTool: { mode: 'parallel' } } } : {}),
      });
      const config = writeConfig(dir, 'hooks.json', hooksOn('BeforeTool', [{ type: 'js', code: REWRITE }]));
      await withExecutor({ config, policy }, async (hw) => {
        const r = await hw.dispatch('BeforeTool', call('ls', { sessionId: 's1' }));
        expect(r.decision).toBe('deny');
        expect(r.reason).toBe('no rm -rf');
      });
    },
  );

  it('once-state is per tenant: tenant B’s first call in a session tenant A used runs the guard', async () => {
    const dir = tempDir();
    const marker = join(dir, 'ran');
    const policy = writeConfig(
      dir,
      'policy.json',
      hooksOn('BeforeTool', [{ command: COUNT(marker), once: true }]),
    );
    const config = writeConfig(dir, 'hooks.json', { tenants: { a: { hooks: {} }, b: { hooks: {} } } });
    await withExecutor({ config, policy }, async (hw) => {
      const ran = async (tenant: string) =>
        (await hw.dispatch('BeforeTool', call('ls', { sessionId: 'shared' }), { tenant })).hooks.length;
      expect(await ran('a')).toBe(1);
      expect(await ran('a')).toBe(0);
      expect(await ran('b')).toBe(1);
      expect(await ran('b')).toBe(0);
    });
  });

  it('a dispatch without a session id never lets once skip the guard', async () => {
    const dir = tempDir();
    const policy = writeConfig(
      dir,
      'policy.json',
      hooksOn('BeforeTool', [{ type: 'js', code: GUARD, once: true }]),
    );
    await withExecutor({ config: [], policy }, async (hw) => {
      const noSession = { toolName: 'Bash', toolInput: { command: 'rm -rf /' } };
      for (let i = 0; i < 3; i++) expect((await hw.dispatch('BeforeTool', noSession)).decision).toBe('deny');
      expect((await hw.dispatch('BeforeTool', call('rm -rf /', { sessionId: 's' }))).decision).toBe('deny');
      expect((await hw.dispatch('BeforeTool', call('rm -rf /', { sessionId: 's' }))).decision).toBe(
        'passthrough',
      );
    });
  });
  // Found by the invariant-2 property (seed 284014540): a once policy guard refused with
  // input_too_large had used its turn, so the next call of the session passed with no guard.
  it.each(['serial', 'parallel'])(
    'a once guard that never ran (input too large, past maxHookCalls) keeps its turn (%s)',
    async (mode) => {
      const dir = tempDir();
      const parallel = mode === 'parallel' ? { events: { BeforeTool: { mode: 'parallel' } } } : {};
      const policy = writeConfig(dir, 'policy.json', {
        ...hooksOn('BeforeTool', [{ type: 'js', code: GUARD, once: true }]),
        ...parallel,
        limits: { maxInputBytes: 300 },
      });
      await withExecutor({ config: [], policy }, async (hw) => {
        const big = await hw.dispatch('BeforeTool', call(`ls ${'x'.repeat(1000)}`, { sessionId: 's' }));
        expect(big.hooks.map((h) => h.error?.code)).toEqual(['input_too_large']);
        expect((await hw.dispatch('BeforeTool', call('rm -rf /', { sessionId: 's' }))).decision).toBe('deny');
      });
      const capped = writeConfig(dir, 'capped.json', {
        ...hooksOn('BeforeTool', [
          { type: 'js', name: 'first', code: 'export default () => ({})' },
          { type: 'js', name: 'guard', code: GUARD, once: true, onError: 'skip' },
        ]),
        ...parallel,
        limits: { maxHookCalls: 1 },
      });
      await withExecutor({ config: [], policy: capped }, async (hw) => {
        const over = await hw.dispatch('BeforeTool', call('ls', { sessionId: 's' }));
        expect(over.hooks.find((h) => h.id === 'guard')?.error?.code).toBe('max_hook_calls');
        const again = await hw.dispatch('BeforeTool', call('rm -rf /', { sessionId: 's' }), {});
        expect(again.hooks.find((h) => h.id === 'guard')?.error?.code).toBe('max_hook_calls');
      });
    },
  );
});

describe('once state across processes (onceStateDir)', () => {
  it('a second executor on the same directory skips the once hook of the same tenant and session only', async () => {
    const dir = tempDir();
    const state = join(tempDir(), 'once');
    const config = writeConfig(
      dir,
      'settings.json',
      hooksOn('SessionStart', [{ type: 'command', command: 'echo hi', once: true }]),
    );
    const ran = async (sessionId: string, tenant?: string) =>
      withExecutor(
        { config, onceStateDir: state },
        async (hw) =>
          (await hw.dispatch('SessionStart', input({ sessionId }), tenant === undefined ? {} : { tenant }))
            .hooks.length,
      );
    expect(await ran('s1')).toBe(1);
    expect(await ran('s1')).toBe(0);
    expect(await ran('s2')).toBe(1);
    // One file per tenant and session, named by a digest (a session id never becomes a path).
    expect(readdirSync(state).every((f) => /^[0-9a-f]{64}$/.test(f))).toBe(true);
  });

  it('runs the hook when the state cannot be trusted: a symlinked folder, a symlinked or oversized file', () => {
    const key = 'SessionStart\0h';
    const base = tempDir();
    const elsewhere = tempDir();
    symlinkSync(elsewhere, join(base, 'once'));
    const linked = new OnceFileStore(join(base, 'once'));
    expect([linked.firstTime(key, 's'), linked.firstTime(key, 's')]).toEqual([true, true]);
    expect(readdirSync(elsewhere)).toEqual([]);

    const dir = join(tempDir(), 'once');
    const store = new OnceFileStore(dir);
    expect(store.firstTime(key, 's')).toBe(true);
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file!), JSON.stringify(['x'.repeat(70 * 1024)]));
    expect([store.firstTime(key, 's'), store.firstTime(key, 's')]).toEqual([true, true]);

    const target = join(tempDir(), 'planted.json');
    writeFileSync(target, JSON.stringify([key]));
    const other = join(tempDir(), 'once');
    mkdirSync(other, { mode: 0o700 });
    const s2 = new OnceFileStore(other);
    s2.firstTime('warm', 'victim');
    const [name] = readdirSync(other);
    const path = join(other, name!);
    rmSync(path);
    symlinkSync(target, path);
    // A symlink planted in place of the session file is not read (the hook runs).
    expect(s2.firstTime(key, 'victim')).toBe(true);
  });
});
