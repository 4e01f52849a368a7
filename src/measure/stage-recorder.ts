// Where the time of a dispatch goes: each hook task's queue / transport / run (from the dispatch's
// `onHookTiming` reports), and the rest of the dispatch (resolve, match, validate, fold, result).
// Means, so the stages add up to the mean dispatch latency. When tasks of one dispatch overlap (a
// parallel event), the hook stages are scaled down to the time at least one task was in flight.
import type { HookTiming } from '../dispatch/hook-timing.js';
import type { DispatchStageSplit, StageSplit } from './bench-result.js';

interface Sums {
  queueMs: number;
  transportMs: number;
  runMs: number;
  n: number;
}

const zero = (): Sums => ({ queueMs: 0, transportMs: 0, runMs: 0, n: 0 });
const ms = (v: number) => Math.round(v * 10_000) / 10_000;

/** Time covered by at least one of the intervals. */
function covered(timings: readonly HookTiming[]): number {
  const spans = timings.map((t) => [t.startedAt, t.endedAt] as const).sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [s, e] of spans) {
    if (e <= end) continue;
    total += e - Math.max(s, end);
    end = e;
  }
  return total;
}

export class StageRecorder {
  readonly #hooks = new Map<string, Sums>();
  readonly #overall = { ...zero(), foldMs: 0, totalMs: 0 };

  /** One measured dispatch: its wall time and the timing of each of its hook tasks. */
  record(elapsedMs: number, timings: readonly HookTiming[]): void {
    let queue = 0;
    let transport = 0;
    let run = 0;
    for (const t of timings) {
      const ran = t.runMs.length;
      if (ran === 0) continue;
      queue += t.queueMs;
      transport += t.transportMs;
      for (const [i, id] of t.hookIds.entries()) {
        let s = this.#hooks.get(id);
        if (s === undefined) {
          s = zero();
          this.#hooks.set(id, s);
        }
        // A JS run of several hooks shares one wait and one round trip: each hook gets its part.
        s.queueMs += t.queueMs / ran;
        s.transportMs += t.transportMs / ran;
        s.runMs += t.runMs[i] ?? 0;
        s.n++;
        run += t.runMs[i] ?? 0;
      }
    }
    const sum = queue + transport + run;
    const inFlight = Math.min(elapsedMs, covered(timings));
    const scale = sum > inFlight && sum > 0 ? inFlight / sum : 1;
    const o = this.#overall;
    o.queueMs += queue * scale;
    o.transportMs += transport * scale;
    o.runMs += run * scale;
    o.foldMs += Math.max(0, elapsedMs - sum * scale);
    o.totalMs += elapsedMs;
    o.n++;
  }

  summarize(): { overall: DispatchStageSplit; perHook: Record<string, StageSplit> } {
    const perHook: Record<string, StageSplit> = Object.create(null);
    for (const [id, s] of this.#hooks)
      perHook[id] = {
        queueMs: ms(s.queueMs / s.n),
        transportMs: ms(s.transportMs / s.n),
        runMs: ms(s.runMs / s.n),
      };
    const o = this.#overall;
    const n = Math.max(1, o.n);
    return {
      overall: {
        queueMs: ms(o.queueMs / n),
        transportMs: ms(o.transportMs / n),
        runMs: ms(o.runMs / n),
        foldMs: ms(o.foldMs / n),
        totalMs: ms(o.totalMs / n),
      },
      perHook,
    };
  }
}
