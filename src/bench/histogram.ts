// An HDR-style latency histogram: log-linear buckets that keep `significantDigits` significant
// digits over [lowestMs, highestMs]. Values are counted in units of `lowestMs`; below
// `subBucketCount` units every unit has its own bucket, above it each power-of-two range is split
// into `subBucketCount / 2` equal buckets, so a bucket is never wider than 10^-digits of its values.
// Storage is sparse (a Map of bucket index → count): memory follows the spread of the data.

/** Histogram options. */
export interface HistogramOptions {
  /** Resolution: the smallest distinguishable value, in ms. Default 0.001 (1 µs). */
  lowestMs?: number;
  /** Largest value tracked, in ms; larger ones are counted at this value (`max` stays exact). Default 3 600 000. */
  highestMs?: number;
  /** Significant decimal digits kept, 1 to 5. Default 3 (relative error ≤ 0.1%). */
  significantDigits?: number;
}

/** One non-empty bucket: `count` values in [fromMs, toMs). */
export interface HistogramBucket {
  fromMs: number;
  toMs: number;
  count: number;
}

const subBucketCountFor = (digits: number) => 2 ** Math.ceil(Math.log2(2 * 10 ** digits));

/** Index of the highest set bit of a positive integer (exact, also above 2^32). */
function log2Floor(units: number): number {
  let e = Math.floor(Math.log2(units));
  // Math.log2 may round across an integer boundary for huge values: correct by one either way.
  if (2 ** e > units) e--;
  else if (2 ** (e + 1) <= units) e++;
  return e;
}

export class Histogram {
  readonly lowestMs: number;
  readonly highestMs: number;
  readonly significantDigits: number;
  readonly #subBucketCount: number;
  readonly #subBucketMagnitude: number;
  readonly #counts = new Map<number, number>();
  #count = 0;
  #sum = 0;
  #min = Number.POSITIVE_INFINITY;
  #max = 0;

  constructor(options: HistogramOptions = {}) {
    const { lowestMs = 0.001, highestMs = 3_600_000, significantDigits = 3 } = options;
    if (!(Number.isFinite(lowestMs) && lowestMs > 0))
      throw new RangeError(`lowestMs: expected a positive number, got ${lowestMs}`);
    if (!(Number.isFinite(highestMs) && highestMs >= 2 * lowestMs))
      throw new RangeError(`highestMs: expected a number ≥ 2 × lowestMs, got ${highestMs}`);
    if (!(Number.isInteger(significantDigits) && significantDigits >= 1 && significantDigits <= 5))
      throw new RangeError(`significantDigits: expected an integer from 1 to 5, got ${significantDigits}`);
    this.lowestMs = lowestMs;
    this.highestMs = highestMs;
    this.significantDigits = significantDigits;
    this.#subBucketCount = subBucketCountFor(significantDigits);
    this.#subBucketMagnitude = Math.log2(this.#subBucketCount);
  }

  /** Records one value in ms (≥ 0). */
  record(valueMs: number): void {
    if (!(valueMs >= 0 && Number.isFinite(valueMs)))
      throw new RangeError(`record: expected a finite value ≥ 0 ms, got ${valueMs}`);
    const index = this.#indexOf(Math.floor(Math.min(valueMs, this.highestMs) / this.lowestMs));
    this.#counts.set(index, (this.#counts.get(index) ?? 0) + 1);
    this.#count++;
    this.#sum += valueMs;
    if (valueMs < this.#min) this.#min = valueMs;
    if (valueMs > this.#max) this.#max = valueMs;
  }

  get count(): number {
    return this.#count;
  }
  /** Exact largest value recorded (0 when empty). */
  get max(): number {
    return this.#max;
  }
  /** Exact smallest value recorded (0 when empty). */
  get min(): number {
    return this.#count === 0 ? 0 : this.#min;
  }
  /** Exact mean of the recorded values (0 when empty). */
  get mean(): number {
    return this.#count === 0 ? 0 : this.#sum / this.#count;
  }

  /**
   * The value at quantile `q` (0 ≤ q ≤ 1), nearest-rank: the upper edge of the bucket holding the
   * ⌈q·count⌉-th smallest value, clamped to [min, max]. Never below the exact value, and above it
   * by at most one bucket: max(lowestMs, value × 10^-significantDigits). 0 when empty.
   */
  valueAtQuantile(q: number): number {
    if (!(q >= 0 && q <= 1)) throw new RangeError(`valueAtQuantile: expected 0 ≤ q ≤ 1, got ${q}`);
    if (this.#count === 0) return 0;
    const rank = Math.max(1, Math.ceil(q * this.#count));
    let seen = 0;
    for (const [index, n] of this.#sortedEntries()) {
      seen += n;
      if (seen >= rank) {
        const upper = this.#rangeOf(index)[1] * this.lowestMs;
        return Math.min(this.#max, Math.max(this.#min, upper));
      }
    }
    return this.#max;
  }

  /**
   * The non-empty buckets in increasing order, for plotting. With `significantDigits` lower than
   * the histogram's, adjacent buckets are merged into that coarser resolution (the bucket edges of
   * the two resolutions align, so the merge is exact).
   */
  buckets(significantDigits = this.significantDigits): HistogramBucket[] {
    if (!(Number.isInteger(significantDigits) && significantDigits >= 1))
      throw new RangeError(`buckets: expected a positive integer, got ${significantDigits}`);
    const coarse = Math.min(significantDigits, this.significantDigits);
    const out: HistogramBucket[] = [];
    const target =
      coarse === this.significantDigits
        ? this
        : new Histogram({ ...this.#options(), significantDigits: coarse });
    for (const [index, n] of this.#sortedEntries()) {
      const [from] = this.#rangeOf(index);
      const [lo, hi] = target.#rangeOf(target.#indexOf(from));
      const last = out[out.length - 1];
      if (last !== undefined && last.fromMs === lo * this.lowestMs) last.count += n;
      else out.push({ fromMs: lo * this.lowestMs, toMs: hi * this.lowestMs, count: n });
    }
    return out;
  }

  #options(): Required<HistogramOptions> {
    return { lowestMs: this.lowestMs, highestMs: this.highestMs, significantDigits: this.significantDigits };
  }

  #sortedEntries(): [number, number][] {
    return [...this.#counts.entries()].sort((a, b) => a[0] - b[0]);
  }

  #indexOf(units: number): number {
    const s = this.#subBucketCount;
    if (units < s) return units;
    const e = log2Floor(units) - this.#subBucketMagnitude + 1;
    const sub = Math.floor(units / 2 ** e);
    return s + (e - 1) * (s / 2) + (sub - s / 2);
  }

  /** [from, to) of a bucket, in units. */
  #rangeOf(index: number): [number, number] {
    const s = this.#subBucketCount;
    if (index < s) return [index, index + 1];
    const half = s / 2;
    const e = Math.floor((index - s) / half) + 1;
    const sub = ((index - s) % half) + half;
    return [sub * 2 ** e, (sub + 1) * 2 ** e];
  }
}
