// maxHookCalls in a parallel event: each hook's cap counts the calls launched before it, and a hook
// that its own scope's cap refused is no call. Found by the invariant-1 property (fuzz seed
// 20261203, case 6804): a project hook past the project's cap of 1 used up a turn, so a user hook
// under the user's cap of 2 was refused too.
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';

const js = (name: string) => ({ type: 'js', name, code: 'export default () => undefined' });

describe('maxHookCalls in a parallel event', () => {
  it('a hook refused by its own scope cap does not count against the next scope', async () => {
    const dir = tempDir('hw-parallel-calls-');
    const policy = writeConfig(dir, 'policy.json', {
      events: { BeforeTool: { mode: 'parallel' } },
      hooks: { BeforeTool: [{ hooks: [js('p')] }] },
    });
    const project = writeConfig(dir, 'project.json', {
      limits: { maxHookCalls: 2 },
      hooks: { BeforeTool: [{ hooks: [js('j1'), js('j2')] }] },
    });
    const user = writeConfig(dir, 'user.json', {
      limits: { maxHookCalls: 3 },
      hooks: { BeforeTool: [{ hooks: [js('u')] }] },
    });
    const hw = await createExecutor({
      policy: [policy],
      config: [project, { path: user, scope: 'user' }],
      root: dir,
      onWarning: () => {},
    });
    try {
      const r = await hw.dispatch('BeforeTool', { toolName: 'Bash', toolInput: { command: 'ls' } });
      const rows = r.hooks.map((h) => [h.id, h.scope, h.outcome, h.error?.code ?? null]);
      // p is call 1, j1 call 2; j2 is past the project's cap of 2; u is call 3, within the user's 3.
      expect(rows).toEqual([
        ['p', 'policy', 'proceed', null],
        ['j1', 'project', 'proceed', null],
        ['j2', 'project', 'not-run', 'max_hook_calls'],
        ['u', 'user', 'proceed', null],
      ]);
    } finally {
      await hw.close();
    }
  });
});
