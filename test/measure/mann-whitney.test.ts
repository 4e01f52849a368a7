// Reference values: SciPy 1.17 `scipy.stats.mannwhitneyu(x, y, alternative='two-sided', method=…)`.
import { describe, expect, it } from 'vitest';
import { mannWhitneyU, normalSf } from '../../src/measure/mann-whitney.js';

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const X20 = [
  1.1, 2.2, 3.3, 4.4, 5.5, 6.6, 7.7, 8.8, 9.9, 10.1, 11.2, 12.3, 13.4, 14.5, 15.6, 16.7, 17.8, 18.9, 19.1,
  20.2,
];

describe('mannWhitneyU', () => {
  it.each([
    ['fully separated, 3 vs 3', [1, 2, 3], [4, 5, 6], 0, 0.1],
    ['fully separated, 10 vs 10', range(1, 10), range(11, 20), 0, 1.082508822446903e-5],
    ['interleaved, 5 vs 4', [19, 22, 16, 29, 24], [20, 11, 17, 12], 17, 0.1111111111111111],
    [
      'unequal sizes, 10 vs 5',
      [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46],
      [1.15, 0.88, 0.9, 0.74, 1.21],
      35,
      0.2544122544122544,
    ],
    ['overlapping, 20 vs 20', X20, range(5, 24), 136, 0.0859140199856938],
  ])('%s: the exact p-value matches SciPy', (_name, x, y, u, p) => {
    const r = mannWhitneyU(x, y);
    expect(r.method).toBe('exact');
    expect(r.u).toBe(u);
    expect(r.p).toBeCloseTo(p, 12);
  });

  it('with ties, uses the normal approximation with tie and continuity corrections, as SciPy does', () => {
    const r = mannWhitneyU([1, 2, 2, 3, 3, 3, 4], [3, 4, 4, 5, 5, 6]);
    expect(r).toMatchObject({ method: 'normal', u: 3.5 });
    expect(r.p).toBeCloseTo(0.012999854364387305, 6);
  });

  it('for large samples, the normal approximation matches SciPy', () => {
    const x = [...X20, ...X20.map((v) => v + 0.05)];
    const y = [...range(5, 24), ...range(5, 24).map((v) => v + 0.5)];
    const r = mannWhitneyU(x, y);
    expect(r).toMatchObject({ method: 'normal', u: 531 });
    expect(r.p).toBeCloseTo(0.009775450217524543, 6);
    expect(r.u + mannWhitneyU(y, x).u).toBe(40 * 40);
  });

  it('is symmetric, and gives p = 1 for identical samples or an empty one', () => {
    const a = [3.1, 2.7, 4.4, 3.9, 2.2];
    const b = [5.1, 4.8, 6.0, 5.5];
    expect(mannWhitneyU(a, b).p).toBeCloseTo(mannWhitneyU(b, a).p, 12);
    expect(mannWhitneyU([1, 1, 1], [1, 1, 1]).p).toBe(1);
    expect(mannWhitneyU([], [1, 2]).p).toBe(1);
  });

  it('computes the normal tail to 1e-7', () => {
    expect(normalSf(0)).toBeCloseTo(0.5, 7);
    expect(normalSf(1.959963984540054)).toBeCloseTo(0.025, 7);
    expect(normalSf(-1)).toBeCloseTo(0.8413447460685429, 7);
    expect(normalSf(4)).toBeCloseTo(3.167124183311998e-5, 9);
  });
});
