// Figures per event name (as dispatched: a replay mixes PreToolUse, PostToolUse, Stop…): the first
// call of each (cold: the hooks' workers and processes starting), then the warm calls' dispatch
// latency, the wall time of the whole hook set, and where the time goes.
import type { HookTiming } from '../dispatch/hook-timing.js';
import type { EventSummary } from './bench-result.js';
import { Histogram } from './histogram.js';
import { roundMs as ms, summarizeLatency } from './latency-summary.js';
import { StageRecorder } from './stage-recorder.js';

/** From the first hook's start to the last one's end: the hook set's wall time, not the sum. */
export function hookSetMs(timings: readonly HookTiming[]): number {
  if (timings.length === 0) return 0;
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const t of timings) {
    if (t.startedAt < start) start = t.startedAt;
    if (t.endedAt > end) end = t.endedAt;
  }
  return Math.max(0, end - start);
}

interface EventSeries {
  canonical: string;
  cold: { dispatchMs: number; hookSetMs: number } | undefined;
  readonly dispatch: Histogram;
  readonly hookSet: Histogram;
  readonly stages: StageRecorder;
  hooksRun: number;
}

export class EventRecorder {
  readonly #events = new Map<string, EventSeries>();

  #series(event: string, canonical: string): EventSeries {
    let s = this.#events.get(event);
    if (s === undefined) {
      s = {
        canonical,
        cold: undefined,
        dispatch: new Histogram(),
        hookSet: new Histogram(),
        stages: new StageRecorder(),
        hooksRun: 0,
      };
      this.#events.set(event, s);
    }
    return s;
  }

  /** An unmeasured call: the first one of an event name is its cold figure. */
  cold(event: string, canonical: string, elapsedMs: number, timings: readonly HookTiming[]): void {
    const s = this.#series(event, canonical);
    s.cold ??= { dispatchMs: ms(elapsedMs), hookSetMs: ms(hookSetMs(timings)) };
  }

  /** A measured (warm) dispatch. */
  record(
    event: string,
    canonical: string,
    elapsedMs: number,
    timings: readonly HookTiming[],
    hooksRun: number,
  ): void {
    const s = this.#series(event, canonical);
    s.dispatch.record(elapsedMs);
    s.hookSet.record(hookSetMs(timings));
    s.stages.record(elapsedMs, timings);
    s.hooksRun += hooksRun;
  }

  /** `perSession`: how often a recorded session holds each event name. */
  summarize(perSession: ReadonlyMap<string, number>): Record<string, EventSummary> {
    // Event names come from recordings: keep them out of any prototype.
    const out: Record<string, EventSummary> = Object.create(null);
    for (const [event, s] of this.#events) {
      const stages = s.stages.summarize().overall;
      out[event] = {
        canonical: s.canonical,
        perSession: Math.round((perSession.get(event) ?? 1) * 1000) / 1000,
        cold: s.cold ?? { dispatchMs: 0, hookSetMs: 0 },
        dispatch: summarizeLatency(s.dispatch),
        hookSet: summarizeLatency(s.hookSet),
        hooksPerDispatch: s.dispatch.count > 0 ? Math.round((s.hooksRun / s.dispatch.count) * 100) / 100 : 0,
        stages,
        histogram: s.dispatch
          .buckets(2)
          .map((b) => ({ fromMs: ms(b.fromMs), toMs: ms(b.toMs), count: b.count })),
      };
    }
    return out;
  }
}
