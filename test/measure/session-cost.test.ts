// The session cost: counts × means, a fixed part for once-per-session events, the rest scaled by
// tool calls, each stage apart.
import { describe, expect, it } from 'vitest';
import type { EventSummary } from '../../src/measure/bench-result.js';
import { hookSetMs } from '../../src/measure/event-recorder.js';
import { sessionCost } from '../../src/measure/session-cost.js';
import { lat } from '../helpers/bench-result.js';

function event(canonical: string, perSession: number, meanMs: number, coldMs = meanMs): EventSummary {
  // Stages that add up to the mean: queue 10%, spawn 40%, run 40%, fold 10%.
  const stages = {
    queueMs: meanMs * 0.1,
    transportMs: meanMs * 0.4,
    runMs: meanMs * 0.4,
    foldMs: meanMs * 0.1,
    totalMs: meanMs,
  };
  return {
    canonical,
    perSession,
    cold: { dispatchMs: coldMs, hookSetMs: coldMs },
    dispatch: { ...lat(meanMs), mean: meanMs },
    hookSet: lat(meanMs),
    hooksPerDispatch: 1,
    stages,
    histogram: [],
  };
}

describe('sessionCost', () => {
  const perEvent = {
    SessionStart: event('SessionStart', 1, 20, 80),
    UserPromptSubmit: event('BeforeTurn', 2, 1),
    PreToolUse: event('BeforeTool', 10, 5),
    PostToolUse: event('AfterTool', 10, 1),
    Stop: event('AfterTurn', 2, 0.5),
  };

  it('costs the recorded mix as counts × means, and T tool calls as the fixed part + T × the rest per call', () => {
    const s = sessionCost(perEvent, 1, { p50: 69, p90: 423 }, 'the source');
    // Fixed: SessionStart 20. Work per session: 2×1 + 10×5 + 10×1 + 2×0.5 = 63, over 10 tool calls.
    expect(s.perSessionMs).toBeCloseTo(20, 6);
    expect(s.perToolCallMs).toBeCloseTo(6.3, 6);
    expect(s.toolCallsPerSession).toBe(10);
    expect(s.rows.map((r) => [r.label, r.toolCalls])).toEqual([
      ['recorded', 10],
      ['p50', 69],
      ['p90', 423],
    ]);
    expect(s.rows[0]!.totalMs).toBeCloseTo(83, 3);
    expect(s.rows[1]!.totalMs).toBeCloseTo(20 + 69 * 6.3, 3);
    expect(s.rows[2]!.totalMs).toBeCloseTo(20 + 423 * 6.3, 3);
    // The stages add up to the total, in the events' own proportions.
    for (const r of s.rows) {
      const { queueMs, transportMs, runMs, foldMs } = r.stages;
      expect(queueMs + transportMs + runMs + foldMs).toBeCloseTo(r.totalMs, 3);
      expect(transportMs / r.totalMs).toBeCloseTo(0.4, 3);
    }
    expect(s.coldExtraMs).toBeCloseTo(60, 6);
    expect(s.distribution).toEqual({ toolCalls: { p50: 69, p90: 423 }, source: 'the source' });
    expect(s.note).toBeUndefined();
  });

  it('without tool calls in the recording, gives the recorded mix only and says why', () => {
    const s = sessionCost({ SessionStart: perEvent.SessionStart, Stop: perEvent.Stop }, 2, { p50: 69 }, 'x');
    expect(s.rows.map((r) => r.label)).toEqual(['recorded']);
    expect(s.note).toMatch(/no tool calls/);
  });
});

describe('hookSetMs', () => {
  it('is the wall time from the first hook start to the last hook end, not the sum of the hooks', () => {
    const t = (startedAt: number, endedAt: number) => ({
      hookIds: ['h'],
      type: 'command' as const,
      startedAt,
      endedAt,
      queueMs: 0,
      transportMs: 0,
      runMs: [endedAt - startedAt],
    });
    expect(hookSetMs([])).toBe(0);
    // Three parallel hooks of 10, 8 and 12 ms overlapping: 13 ms of wall time, 30 ms of work.
    expect(hookSetMs([t(100, 110), t(101, 109), t(101, 113)])).toBe(13);
    // A serial chain: back to back.
    expect(hookSetMs([t(0, 5), t(5, 9)])).toBe(9);
  });
});
