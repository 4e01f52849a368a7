import { describe, expect, it } from 'vitest';
import type { HookTiming } from '../../src/dispatch/hook-timing.js';
import { StageRecorder } from '../../src/measure/stage-recorder.js';

const task = (
  ids: string[],
  startedAt: number,
  queueMs: number,
  transportMs: number,
  runMs: number[],
): HookTiming => ({
  hookIds: ids,
  type: ids.length > 1 ? 'js' : 'command',
  startedAt,
  endedAt: startedAt + queueMs + transportMs + runMs.reduce((a, b) => a + b, 0),
  queueMs,
  transportMs,
  runMs,
});

describe('StageRecorder', () => {
  it('adds serial tasks up, and the rest of the dispatch is fold and result', () => {
    const rec = new StageRecorder();
    rec.record(10, [task(['a'], 0, 1, 2, [3]), task(['b'], 6, 0, 1, [1])]);
    const s = rec.summarize();
    expect(s.overall).toEqual({ queueMs: 1, transportMs: 3, runMs: 4, foldMs: 2, totalMs: 10 });
    expect(s.perHook).toEqual({
      a: { queueMs: 1, transportMs: 2, runMs: 3 },
      b: { queueMs: 0, transportMs: 1, runMs: 1 },
    });
  });

  it('shares a JS run’s wait and round trip among its hooks, each keeping its own run', () => {
    const rec = new StageRecorder();
    rec.record(5, [task(['x', 'y'], 0, 1, 1, [1, 2])]);
    expect(rec.summarize().perHook).toEqual({
      x: { queueMs: 0.5, transportMs: 0.5, runMs: 1 },
      y: { queueMs: 0.5, transportMs: 0.5, runMs: 2 },
    });
  });

  it('scales overlapping (parallel) tasks down to the time a task was in flight', () => {
    const rec = new StageRecorder();
    // Two tasks of 4 ms each, fully overlapping, in a 5 ms dispatch: 4 ms in flight, 1 ms fold.
    rec.record(5, [task(['a'], 0, 0, 2, [2]), task(['b'], 0, 0, 2, [2])]);
    const o = rec.summarize().overall;
    expect(o.transportMs + o.runMs).toBeCloseTo(4, 9);
    expect(o.foldMs).toBeCloseTo(1, 9);
  });
});
