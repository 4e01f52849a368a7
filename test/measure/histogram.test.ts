import { describe, expect, it } from 'vitest';
import { Histogram } from '../../src/measure/histogram.js';
import { ascending, quantile } from '../../src/measure/quantile.js';

/** Deterministic PRNG (mulberry32) so every run checks the same sample. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Latency-like sample: log-normal around ~0.5 ms with a long tail, plus a few outliers. */
function sample(n: number, seed: number): number[] {
  const r = random(seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const z = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
    out.push(Math.exp(Math.log(0.5) + 0.9 * z));
  }
  out.push(0, 0.0004, 1234.5678, 98_765.4321);
  return out;
}

const QUANTILES = [0, 0.001, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.9999, 1];

describe('Histogram', () => {
  it.each([1, 2, 3, 4])(
    'with %i significant digits, every quantile is within one bucket above the exact nearest-rank value',
    (digits) => {
      const values = sample(20_000, 7 + digits);
      const h = new Histogram({ significantDigits: digits });
      for (const v of values) h.record(v);
      // The histogram answers the rank the one percentile definition (quantile.ts) names.
      const sorted = ascending(values);
      for (const q of QUANTILES) {
        const exact = quantile(sorted, q);
        const got = h.valueAtQuantile(q);
        const bound = Math.max(h.lowestMs, exact * 10 ** -digits);
        expect(got, `q=${q}`).toBeGreaterThanOrEqual(exact);
        expect(got - exact, `q=${q} exact=${exact} got=${got}`).toBeLessThanOrEqual(bound * (1 + 1e-9));
      }
    },
  );

  it('keeps count, min, max and mean exact', () => {
    const values = sample(5_000, 1);
    const h = new Histogram();
    for (const v of values) h.record(v);
    expect(h.count).toBe(values.length);
    expect(h.min).toBe(Math.min(...values));
    expect(h.max).toBe(Math.max(...values));
    expect(h.mean).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 9);
    expect(h.valueAtQuantile(1)).toBe(h.max);
  });

  it('counts values above highestMs at highestMs but keeps the exact max', () => {
    const h = new Histogram({ highestMs: 100 });
    h.record(5);
    h.record(10_000);
    expect(h.max).toBe(10_000);
    expect(h.valueAtQuantile(0.5)).toBeCloseTo(5, 2);
    expect(h.buckets().at(-1)!.fromMs).toBeLessThanOrEqual(100);
  });

  it('exports its non-empty buckets in order, and merges them exactly into a coarser resolution', () => {
    const values = sample(10_000, 3);
    const h = new Histogram({ significantDigits: 3 });
    for (const v of values) h.record(v);
    for (const digits of [3, 2, 1]) {
      const buckets = h.buckets(digits);
      expect(buckets.reduce((n, b) => n + b.count, 0)).toBe(values.length);
      for (const [i, b] of buckets.entries()) {
        expect(b.count).toBeGreaterThan(0);
        expect(b.toMs).toBeGreaterThan(b.fromMs);
        if (i > 0) expect(b.fromMs).toBeGreaterThanOrEqual(buckets[i - 1]!.toMs);
        // Relative width: one unit (lowestMs) or at most 10^-digits of the bucket's values.
        expect(b.toMs - b.fromMs).toBeLessThanOrEqual(
          Math.max(h.lowestMs, b.fromMs * 10 ** -digits) * 1.000001,
        );
        expect(values.filter((v) => v >= b.fromMs && v < b.toMs).length).toBe(b.count);
      }
    }
    expect(h.buckets(1).length).toBeLessThan(h.buckets(3).length);
  });

  it('answers 0 when empty and rejects bad input, naming the option and the value', () => {
    const h = new Histogram();
    expect([h.count, h.min, h.max, h.mean, h.valueAtQuantile(0.5)]).toEqual([0, 0, 0, 0, 0]);
    expect(h.buckets()).toEqual([]);
    expect(() => h.record(-1)).toThrow('record: expected a finite value ≥ 0 ms, got -1');
    expect(() => h.record(Number.NaN)).toThrow(/got NaN/);
    expect(() => h.valueAtQuantile(1.5)).toThrow('valueAtQuantile: expected 0 ≤ q ≤ 1, got 1.5');
    expect(() => new Histogram({ significantDigits: 0 })).toThrow(
      'significantDigits: expected an integer from 1 to 5, got 0',
    );
    expect(() => new Histogram({ lowestMs: 0 })).toThrow('lowestMs: expected a positive number, got 0');
    expect(() => new Histogram({ lowestMs: 1, highestMs: 1 })).toThrow(/highestMs: expected a number/);
  });
});
