// The latency histogram of a bench run: a thin wrapper over hdr-histogram-js (HdrHistogram's own
// JavaScript port, pure JS, sparse "packed" counts so memory follows the spread of the data). It
// records milliseconds as whole units of `lowestMs`, keeps `significantDigits` significant digits,
// and adds what a latency report needs on top: an exact min, max and mean (HDR keeps them only to
// its resolution), quantiles as the upper edge of a value's bucket (never below the exact value),
// and the non-empty buckets for plotting, merged exactly into a coarser resolution.
//
// The class is imported from the package's dist file rather than its index: the index also decodes
// a WebAssembly build at import (~60 ms), which every `import 'hookwarden'` would pay.
import { createRequire } from 'node:module';
import type * as Packed from 'hdr-histogram-js/dist/PackedHistogram.js';
import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';

// A CommonJS file: required, so that Node, vitest and the CLI bundle all see the same export.
const PackedHistogram = (
  createRequire(import.meta.url)('hdr-histogram-js/dist/PackedHistogram.js') as {
    default: typeof Packed.default.default;
  }
).default;
type Hdr = InstanceType<typeof Packed.default.default>;

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

const HISTOGRAM_OPTION_KEYS = optionKeys<HistogramOptions>()(['lowestMs', 'highestMs', 'significantDigits']);

type Digits = 1 | 2 | 3 | 4 | 5;

export class Histogram {
  readonly lowestMs: number;
  readonly highestMs: number;
  readonly significantDigits: number;
  readonly #hdr: Hdr;
  readonly #highestUnits: number;
  #sum = 0;
  #min = Number.POSITIVE_INFINITY;
  #max = 0;

  constructor(options: HistogramOptions = {}) {
    refuseUnknownOptions(options, HISTOGRAM_OPTION_KEYS, '');
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
    this.#highestUnits = Math.floor(highestMs / lowestMs);
    this.#hdr = new PackedHistogram(1, this.#highestUnits, significantDigits as Digits);
  }

  /** Records one value in ms (≥ 0). */
  record(valueMs: number): void {
    if (!(valueMs >= 0 && Number.isFinite(valueMs)))
      throw new RangeError(`record: expected a finite value ≥ 0 ms, got ${valueMs}`);
    this.#hdr.recordValue(Math.min(this.#highestUnits, Math.floor(valueMs / this.lowestMs)));
    this.#sum += valueMs;
    if (valueMs < this.#min) this.#min = valueMs;
    if (valueMs > this.#max) this.#max = valueMs;
  }

  get count(): number {
    return this.#hdr.totalCount;
  }
  /** Exact largest value recorded (0 when empty). */
  get max(): number {
    return this.#max;
  }
  /** Exact smallest value recorded (0 when empty). */
  get min(): number {
    return this.count === 0 ? 0 : this.#min;
  }
  /** Exact mean of the recorded values (0 when empty). */
  get mean(): number {
    return this.count === 0 ? 0 : this.#sum / this.count;
  }

  /**
   * The value at quantile `q` (0 ≤ q ≤ 1), nearest-rank: the upper edge of the bucket holding the
   * ⌈q·count⌉-th smallest value, clamped to [min, max]. Never below the exact value, and above it
   * by at most one bucket: max(lowestMs, value × 10^-significantDigits). 0 when empty.
   */
  valueAtQuantile(q: number): number {
    if (!(q >= 0 && q <= 1)) throw new RangeError(`valueAtQuantile: expected 0 ≤ q ≤ 1, got ${q}`);
    if (this.count === 0) return 0;
    if (q === 0) return this.#min;
    // HDR answers the highest unit of the bucket ([from, to − 1]); its upper edge in ms is `to`.
    const units = this.#hdr.getValueAtPercentile(q * 100);
    const upper = this.#hdr.nextNonEquivalentValue(units) * this.lowestMs;
    return Math.min(this.#max, Math.max(this.#min, upper));
  }

  /**
   * The non-empty buckets in increasing order, for plotting. With `significantDigits` lower than
   * the histogram's, adjacent buckets are merged into that coarser resolution (HDR's bucket edges
   * of the two resolutions align, so the merge is exact).
   */
  buckets(significantDigits = this.significantDigits): HistogramBucket[] {
    if (!(Number.isInteger(significantDigits) && significantDigits >= 1))
      throw new RangeError(`buckets: expected a positive integer, got ${significantDigits}`);
    const coarse = Math.min(significantDigits, this.significantDigits);
    // The coarser layout: only its bucket arithmetic is used, nothing is recorded in it.
    const target =
      coarse === this.significantDigits
        ? this.#hdr
        : new PackedHistogram(1, this.#highestUnits, coarse as Digits);
    const out: HistogramBucket[] = [];
    const it = this.#hdr.recordedValuesIterator;
    it.reset();
    while (it.hasNext()) {
      const v = it.next();
      const lo = target.lowestEquivalentValue(v.valueIteratedTo);
      const last = out[out.length - 1];
      if (last !== undefined && last.fromMs === lo * this.lowestMs) last.count += v.countAtValueIteratedTo;
      else {
        const hi = target.nextNonEquivalentValue(v.valueIteratedTo);
        out.push({ fromMs: lo * this.lowestMs, toMs: hi * this.lowestMs, count: v.countAtValueIteratedTo });
      }
    }
    return out;
  }
}
