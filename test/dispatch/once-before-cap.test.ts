// A `once` hook whose turn this session is spent is no guard, so no cap refuses it: the turn is
// claimed before maxHookCalls is checked, in serial events as in parallel ones. Found by the
// invariant-1 property (fuzz seed 20261203, case 50562): serially, a spent once guard past the
// policy's cap of 1 was refused and denied; a project file that made BeforeTool parallel turned
// that deny into an allow.
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';

const allow = "export default () => ({ decision: 'allow' })";

describe('a spent once hook and maxHookCalls', () => {
  for (const mode of ['serial', 'parallel'] as const) {
    it(`${mode}: a spent once guard is skipped, not refused by the cap`, async () => {
      const dir = tempDir('hw-once-cap-');
      const a = writeConfig(dir, 'a.json', {
        events: { BeforeTool: { mode } },
        hooks: { BeforeTool: [{ matcher: 'Write', hooks: [{ type: 'js', name: 'p0', code: allow }] }] },
      });
      const b = writeConfig(dir, 'b.json', {
        limits: { maxHookCalls: 1 },
        hooks: { BeforeTool: [{ hooks: [{ type: 'js', name: 'p1', once: true, code: allow }] }] },
      });
      const hw = await createExecutor({ policy: [a, b], root: dir, onWarning: () => {} });
      try {
        const rows = (r: Awaited<ReturnType<typeof hw.dispatch>>) =>
          r.hooks.map((h) => [h.id, h.outcome, h.error?.code ?? null]);
        const at = (toolName: string) =>
          hw.dispatch('BeforeTool', { toolName, toolInput: { file_path: 'x' }, sessionId: 's1' });
        // Bash: p0 does not match; p1 takes its one turn (call 1 of 1).
        const first = await at('Bash');
        expect(rows(first)).toEqual([['p1', 'allow', null]]);
        // Write: p0 is call 1; p1's turn is spent, so it is no guard here and the cap never sees it.
        const second = await at('Write');
        expect(second.decision).toBe('allow');
        expect(rows(second)).toEqual([['p0', 'allow', null]]);
      } finally {
        await hw.close();
      }
    });

    it(`${mode}: a once guard with its turn still owed, past the cap, denies and keeps its turn`, async () => {
      const dir = tempDir('hw-once-cap-');
      const a = writeConfig(dir, 'a.json', {
        events: { BeforeTool: { mode } },
        hooks: { BeforeTool: [{ hooks: [{ type: 'js', name: 'p0', code: allow }] }] },
      });
      const b = writeConfig(dir, 'b.json', {
        limits: { maxHookCalls: 1 },
        hooks: { BeforeTool: [{ hooks: [{ type: 'js', name: 'p1', once: true, code: allow }] }] },
      });
      const hw = await createExecutor({ policy: [a, b], root: dir, onWarning: () => {} });
      try {
        const ev = { toolName: 'Bash', toolInput: { command: 'ls' }, sessionId: 's1' };
        for (let n = 0; n < 2; n++) {
          const r = await hw.dispatch('BeforeTool', ev);
          expect(r.decision).toBe('deny');
          expect(r.hooks.find((h) => h.id === 'p1')?.error?.code).toBe('max_hook_calls');
        }
      } finally {
        await hw.close();
      }
    });
  }
});
