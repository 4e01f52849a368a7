// Wall-clock intervals for spans, without the OpenTelemetry API: the dispatch stage records when each
// hook's lane took it and when its answer came back (only when traced), and tracing.ts turns them into
// span times.

/** A stretch of time on the wall clock, epoch milliseconds (fractions kept). */
export interface Interval {
  readonly startMs: number;
  readonly endMs: number;
}

/** Now, epoch milliseconds with the fraction of `performance.now()`. */
export const nowMs = (): number => performance.timeOrigin + performance.now();
