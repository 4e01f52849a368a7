// The Wilcoxon signed-rank test, two-sided: are paired differences centred on zero? `bench ab`
// runs it over the per-block log ratios of two runs whose blocks alternated in one window, so that
// each pair saw the same machine. Rank-based like the Mann-Whitney U test of `bench compare`: no
// assumption of normality, and one wild pair cannot dominate. Zero differences are dropped (SciPy's
// default, `zero_method="wilcox"`). Exact p-values (the distribution of W+ counted) without ties up
// to 50 pairs; otherwise the normal approximation with the tie correction and no continuity
// correction, as SciPy's `wilcoxon` computes by default (test/measure/wilcoxon.test.ts checks its
// values). With it, the Hodges-Lehmann estimate of the shift: the median of the pairwise averages.
import { normalSf, rank } from './mann-whitney.js';
import { median } from './quantile.js';

export interface WilcoxonResult {
  /** W+: the sum of the ranks of the positive differences. */
  wPlus: number;
  /** Pairs that counted (non-zero differences). */
  n: number;
  /** Two-sided p-value. */
  p: number;
  method: 'exact' | 'normal';
}

const EXACT_MAX_N = 50;

/** P(W+ ≤ w) for n untied ranks: every subset of 1…n is equally likely, counted by subset sums. */
function exactCdf(n: number, w: number): number {
  const max = (n * (n + 1)) / 2;
  let counts = new Array<number>(max + 1).fill(0);
  counts[0] = 1;
  for (let k = 1; k <= n; k++) {
    const next = counts.slice();
    for (let s = k; s <= max; s++) next[s]! += counts[s - k]!;
    counts = next;
  }
  let below = 0;
  for (let s = 0; s <= Math.floor(w + 1e-9); s++) below += counts[s]!;
  return below / 2 ** n;
}

/** Two-sided signed-rank test of the differences `d` against zero. No pairs give p = 1. */
export function wilcoxonSignedRank(d: readonly number[]): WilcoxonResult {
  const nonZero = d.filter((v) => v !== 0 && Number.isFinite(v));
  const n = nonZero.length;
  if (n === 0) return { wPlus: 0, n: 0, p: 1, method: 'exact' };
  const { ranks, ties } = rank(nonZero.map(Math.abs));
  let wPlus = 0;
  for (let i = 0; i < n; i++) if (nonZero[i]! > 0) wPlus += ranks[i]!;
  const total = (n * (n + 1)) / 2;
  const wMin = Math.min(wPlus, total - wPlus);
  if (ties.length === 0 && n <= EXACT_MAX_N)
    return { wPlus, n, p: Math.min(1, 2 * exactCdf(n, wMin)), method: 'exact' };
  const tieTerm = ties.reduce((s, t) => s + (t ** 3 - t), 0);
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48;
  if (variance <= 0) return { wPlus, n, p: 1, method: 'normal' };
  const z = (total / 2 - wMin) / Math.sqrt(variance);
  return { wPlus, n, p: Math.min(1, 2 * normalSf(z)), method: 'normal' };
}

/** The Hodges-Lehmann estimate of the centre of `d`: the median of all (dᵢ + dⱼ) / 2, i ≤ j. */
export function hodgesLehmann(d: readonly number[]): number {
  const walsh: number[] = [];
  for (let i = 0; i < d.length; i++) for (let j = i; j < d.length; j++) walsh.push((d[i]! + d[j]!) / 2);
  return walsh.length === 0 ? 0 : median(walsh);
}
