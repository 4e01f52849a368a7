// Reference values: SciPy 1.17 `scipy.stats.wilcoxon(d, method=…)` (two-sided, zero_method="wilcox").
import { describe, expect, it } from 'vitest';
import { hodgesLehmann, wilcoxonSignedRank } from '../../src/measure/wilcoxon.js';

describe('wilcoxonSignedRank', () => {
  it.each([
    ['all positive, 10', [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1], 0.001953125],
    ['mixed, 8', [0.5, -0.2, 1.1, 0.3, -0.7, 0.9, 1.4, 0.05], 0.1484375],
    [
      'mixed, 20',
      [
        0.12, -0.03, 0.08, 0.2, -0.11, 0.05, 0.31, -0.07, 0.15, 0.02, 0.09, -0.01, 0.22, 0.04, -0.095, 0.13,
        0.06, 0.18, -0.065, 0.1,
      ],
      0.01923370361328125,
    ],
    ['zeros dropped, 9', [0, 0, 1.5, -0.5, 2.5, 1, 3, -2, 0.7], 0.21875],
  ])('%s: the exact p-value matches SciPy', (_name, d, p) => {
    const r = wilcoxonSignedRank(d);
    expect(r.method).toBe('exact');
    expect(r.p).toBeCloseTo(p, 12);
  });

  it.each([
    ['ties, 12', [1, 1, -1, 2, 2, 2, -3, 3, 4, -4, 5, 6], 0.11525679957791299],
    [
      'ties and zeros, 25',
      Array.from({ length: 25 }, (_, i) => Math.round(((i * 7) % 9) - 3) / 10),
      0.05608851098843385,
    ],
  ])('%s: the normal approximation with the tie correction matches SciPy', (_name, d, p) => {
    const r = wilcoxonSignedRank(d);
    expect(r.method).toBe('normal');
    expect(r.p).toBeCloseTo(p, 6);
  });

  it('is symmetric, and says nothing without pairs', () => {
    const d = [0.5, -0.2, 1.1, 0.3, -0.7, 0.9, 1.4, 0.05];
    expect(wilcoxonSignedRank(d.map((v) => -v)).p).toBeCloseTo(wilcoxonSignedRank(d).p, 12);
    expect(wilcoxonSignedRank(d).wPlus).toBe(29);
    expect(wilcoxonSignedRank([])).toMatchObject({ p: 1, n: 0 });
    expect(wilcoxonSignedRank([0, 0, 0])).toMatchObject({ p: 1, n: 0 });
  });
});

describe('hodgesLehmann', () => {
  it('is the median of the pairwise averages (the lower middle one of an even count)', () => {
    expect(hodgesLehmann([0.5, -0.2, 1.1, 0.3, -0.7, 0.9, 1.4, 0.05])).toBeCloseTo(0.4, 12);
    expect(hodgesLehmann([2])).toBe(2);
    expect(hodgesLehmann([])).toBe(0);
    // One wild pair moves it far less than it moves the mean.
    expect(hodgesLehmann([0.1, 0.1, 0.12, 0.09, 5])).toBeLessThan(0.2);
  });
});
