// The stage timing a dispatch reports through `onHookTiming` (what `hookwarden bench` splits).
import { describe, expect, it } from 'vitest';
import type { HookTiming } from '../../src/index.js';
import { hooksOn, input, withExecutor } from '../helpers/fixture.js';

const config = hooksOn('BeforeTool', [
  { type: 'js', name: 'a', code: "export default () => ({ decision: 'allow' })" },
  { type: 'js', name: 'b', code: "export default () => ({ decision: 'allow' })" },
  { type: 'command', name: 'c', argv: ['/bin/true'] },
]);

describe('onHookTiming', () => {
  it('reports one timing per task: a JS run of two hooks, then a command hook, each within the dispatch', async () => {
    await withExecutor({ config }, async (hw) => {
      const timings: HookTiming[] = [];
      const started = performance.now();
      const result = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }), {
        onHookTiming: (t) => timings.push(t),
      });
      const ended = performance.now();
      expect(result.decision).toBe('allow');
      expect(timings.map((t) => [t.type, t.hookIds])).toEqual([
        ['js', ['a', 'b']],
        ['command', ['c']],
      ]);
      for (const t of timings) {
        expect(t.startedAt).toBeGreaterThanOrEqual(started);
        expect(t.endedAt).toBeLessThanOrEqual(ended);
        // The stages are the task's wall time, cut in three.
        const parts = t.queueMs + t.transportMs + t.runMs.reduce((x, y) => x + y, 0);
        expect(parts).toBeCloseTo(t.endedAt - t.startedAt, 6);
        expect(Math.min(t.queueMs, t.transportMs, ...t.runMs)).toBeGreaterThanOrEqual(0);
      }
      // The hooks' own runs are the records' latencies (a command hook's without its spawn() call).
      const [js, cmd] = timings;
      expect(js!.runMs).toEqual(result.hooks.slice(0, 2).map((h) => expect.closeTo(h.latencyMs, 2)));
      expect(cmd!.runMs[0]!).toBeLessThan(result.hooks[2]!.latencyMs);
      expect(cmd!.transportMs).toBeGreaterThan(0);
    });
  });

  it('a listener that throws does not fail the dispatch', async () => {
    await withExecutor({ config }, async (hw) => {
      const result = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }), {
        onHookTiming: () => {
          throw new Error('listener bug');
        },
      });
      expect(result.decision).toBe('allow');
      expect(result.hooks.map((h) => h.outcome)).toEqual(['allow', 'allow', 'proceed']);
    });
  });
});
