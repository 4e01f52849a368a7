// A `once` JS hook batched behind a hook that denies (adjacent JS hooks of one scope run as one
// worker task, which stops at the deny) never ran, so it keeps its session's turn. Found by the
// invariant-2 property (fuzz seed 20261203, case 5111): the once guard lost its turn, and the
// session's next dispatch was allowed without it ever seeing an input.
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';

describe('once hooks in a JS batch', () => {
  it('a once hook left unrun by a deny before it in its batch runs in the next dispatch', async () => {
    const dir = tempDir('hw-once-batch-');
    const policy = writeConfig(dir, 'policy.json', {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              {
                type: 'js',
                name: 'guard',
                code: "export default (i) => JSON.stringify(i.toolInput).includes('SECRET') ? { decision: 'deny' } : undefined",
              },
              {
                type: 'js',
                name: 'first-use',
                once: true,
                code: "export default () => ({ decision: 'ask' })",
              },
            ],
          },
        ],
      },
    });
    const hw = await createExecutor({ policy: [policy], root: dir, onWarning: () => {} });
    try {
      const denied = await hw.dispatch('BeforeTool', {
        sessionId: 's',
        toolName: 'Bash',
        toolInput: { command: 'echo SECRET' },
      });
      expect(denied.decision).toBe('deny');
      expect(denied.hooks.map((h) => [h.id, h.outcome])).toEqual([
        ['guard', 'deny'],
        ['first-use', 'not-run'],
      ]);
      const next = await hw.dispatch('BeforeTool', {
        sessionId: 's',
        toolName: 'Bash',
        toolInput: { command: 'ls' },
      });
      expect(next.decision).toBe('ask');
      expect(next.hooks.map((h) => [h.id, h.outcome])).toEqual([
        ['guard', 'proceed'],
        ['first-use', 'ask'],
      ]);
      // Its turn is used now.
      const third = await hw.dispatch('BeforeTool', {
        sessionId: 's',
        toolName: 'Bash',
        toolInput: { command: 'ls' },
      });
      expect(third.hooks.map((h) => h.id)).toEqual(['guard']);
    } finally {
      await hw.close();
    }
  });
});
