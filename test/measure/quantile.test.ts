// One percentile method for hookwarden bench and the bench/ scenarios: nearest-rank (quantile.ts).
// The histogram's agreement with it is test/measure/histogram.test.ts.
import { describe, expect, it } from 'vitest';
import { stats } from '../../bench/harness.js';
import { AnswerTimings } from '../../src/cli/claude-code/daemon/answer-timings.js';
import { ascending, median, quantile } from '../../src/measure/quantile.js';

describe('quantile', () => {
  it('is nearest-rank: the ⌈q·n⌉-th smallest, a measured value', () => {
    const ten = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
    const s = ascending(ten);
    expect([0, 0.1, 0.25, 0.5, 0.9, 0.99, 1].map((q) => quantile(s, q))).toEqual([1, 1, 3, 5, 9, 10, 10]);
    expect(quantile(ascending(Array.from({ length: 100 }, (_, i) => i + 1)), 0.29)).toBe(29);
    expect(median([4, 1, 3, 2])).toBe(2);
    expect(median([3, 1, 2])).toBe(2);
    expect(quantile([], 0.5)).toBe(0);
    expect(() => quantile(s, 1.5)).toThrow(RangeError);
  });

  it("is what the bench/ scenarios' figures use", () => {
    const samples = Array.from({ length: 1000 }, (_, i) => ((i * 7919) % 1000) / 10);
    const s = ascending(samples);
    expect(stats(samples)).toMatchObject({
      n: 1000,
      p50: quantile(s, 0.5),
      p90: quantile(s, 0.9),
      p99: quantile(s, 0.99),
    });
  });

  it('is what `claude-code daemon status` reports', () => {
    const t = new AnswerTimings();
    for (let ms = 10; ms >= 1; ms--) t.record('command', ms);
    // Nearest-rank: p90 of 1..10 is 9 (the 9th smallest), not the 10th.
    expect(t.summary()).toEqual({ command: { n: 10, p50: 5, p90: 9, p99: 10 } });
  });
});
