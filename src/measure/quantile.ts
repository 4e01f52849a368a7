// The one definition of a percentile in hookwarden: nearest-rank. The q-quantile of n values is the
// ⌈q·n⌉-th smallest (the smallest for q = 0), always a value that was measured. The HDR histogram of
// `hookwarden bench` answers the same rank, to the upper edge of its bucket (histogram.ts); the
// bench/ scenarios' percentiles and medians, and the warnings and comparisons read from block
// medians, are computed here, so the figures of both are comparable.

/** The q-quantile (0 ≤ q ≤ 1) of values sorted ascending, nearest-rank; 0 for none. */
export function quantile(sorted: readonly number[], q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`quantile: expected 0 ≤ q ≤ 1, got ${q}`);
  if (sorted.length === 0) return 0;
  // The epsilon keeps a product such as 0.29 × 100 (28.999…) on its rank.
  const rank = Math.max(1, Math.ceil(q * sorted.length - 1e-9));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

/** A sorted copy (ascending). */
export const ascending = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);

/** The median, nearest-rank (of an even count, the lower of the middle two). */
export const median = (values: readonly number[]): number => quantile(ascending(values), 0.5);
