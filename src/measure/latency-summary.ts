// A histogram as the percentiles a bench result reports, and the rounding every figure gets.
import type { LatencySummary } from './bench-result.js';
import type { Histogram } from './histogram.js';

/** Milliseconds to 0.1 µs. */
export const roundMs = (v: number) => Math.round(v * 10_000) / 10_000;

export function summarizeLatency(h: Histogram): LatencySummary {
  return {
    count: h.count,
    p50: roundMs(h.valueAtQuantile(0.5)),
    p90: roundMs(h.valueAtQuantile(0.9)),
    p99: roundMs(h.valueAtQuantile(0.99)),
    p999: roundMs(h.valueAtQuantile(0.999)),
    max: roundMs(h.max),
    mean: roundMs(h.mean),
  };
}
