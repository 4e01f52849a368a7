// Lost machinery is not a verdict: a JS hook whose QuickJS worker thread ends under it (as a crash
// would) runs once more on a fresh worker, its own answer decides, and its record says so. (The
// spawn server's case is in test/sandbox/command/spawn-server.test.ts.)
import { describe, expect, it } from 'vitest';
import { internalsOf } from '../../src/executor/internals.js';
import type { Executor } from '../../src/index.js';
import { hooksOn, input, withExecutor } from '../helpers/fixture.js';

const lane = (hw: Executor) => internalsOf(hw).pool.js;

// Long enough that the termination lands while it runs, well inside its deadline.
const SLOW = `export default () => { let x = 0; for (let i = 0; i < 3e6; i++) x += i % 7; return { decision: 'deny', reason: 'guard decided ' + (x > 0) }; }`;

describe('a JS hook whose worker is lost under it', () => {
  it('runs again on a fresh worker: its own answer decides, and its record says so', async () => {
    const config = hooksOn('BeforeTool', [{ type: 'js', name: 'guard', code: SLOW, timeoutMs: 20_000 }]);
    await withExecutor({ config, limits: { jsThreads: 1 } }, async (hw) => {
      // Loaded first: a thread still importing its module must not be terminated (Node 20 aborts).
      await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      let first = true;
      hw.on('hook.started', () => {
        if (!first) return;
        first = false;
        void lane(hw).terminateThreads();
      });
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      expect(r).toMatchObject({ decision: 'deny', reason: 'guard decided true', decidedBy: 'guard' });
      expect(r.hooks[0]).toMatchObject({ outcome: 'deny', retried: { code: 'worker_crashed' } });
    });
  }, 60_000);
});
