// The Mann-Whitney U test (Wilcoxon rank-sum), two-sided: do two samples come from the same
// distribution, or is one shifted? `bench compare` runs it over the per-block medians of two runs,
// as benchstat does over repeated benchmark runs. Rank-based, so one wild block cannot dominate,
// and no assumption of normality. Exact p-values (the distribution of U counted by recursion) when
// there are no ties and the samples are small; otherwise the normal approximation with tie and
// continuity corrections. Checked against SciPy's `mannwhitneyu` (test/measure/mann-whitney.test.ts).

export interface MannWhitneyResult {
  /** U of the first sample: pairs (x, y) with x > y, ties counting one half. */
  u: number;
  /** Two-sided p-value. */
  p: number;
  method: 'exact' | 'normal';
}

/** Largest n1 × n2 for which the exact distribution is counted (memory ~ n1·n2·(n1·n2)/2 numbers). */
const EXACT_MAX_PAIRS = 900;

/** Midranks (1-based) of `values`, and the tie groups' sizes. */
export function rank(values: readonly number[]): { ranks: number[]; ties: number[] } {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  const ties: number[] = [];
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    const mid = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]![1]] = mid;
    if (j > i) ties.push(j - i + 1);
    i = j + 1;
  }
  return { ranks, ties };
}

/**
 * P(U ≤ u) for samples of sizes m and n with no ties: f(m, n, u) = (m·f(m−1, n, u−n) + n·f(m, n−1, u)) / (m+n),
 * the last element of the pooled ordering being from the first sample (it then beats all n) or not.
 */
function exactCdf(m: number, n: number, u: number): number {
  const memo = new Map<number, number[]>();
  // Probability that U equals each value, for sizes (a, b).
  const dist = (a: number, b: number): number[] => {
    if (a === 0 || b === 0) return [1];
    const key = a * 10_000 + b;
    const hit = memo.get(key);
    if (hit !== undefined) return hit;
    const left = dist(a - 1, b);
    const right = dist(a, b - 1);
    const out = new Array<number>(a * b + 1).fill(0);
    for (let k = 0; k < left.length; k++) out[k + b]! += (a / (a + b)) * left[k]!;
    for (let k = 0; k < right.length; k++) out[k]! += (b / (a + b)) * right[k]!;
    memo.set(key, out);
    return out;
  };
  const d = dist(m, n);
  let sum = 0;
  for (let k = 0; k <= Math.floor(u + 1e-9) && k < d.length; k++) sum += d[k]!;
  return sum;
}

/** The standard normal's upper tail, P(Z > z), by the complementary error function (Numerical Recipes erfc). */
export function normalSf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/** Two-sided Mann-Whitney U test of `x` against `y`. Empty samples give p = 1. */
export function mannWhitneyU(x: readonly number[], y: readonly number[]): MannWhitneyResult {
  const m = x.length;
  const n = y.length;
  if (m === 0 || n === 0) return { u: 0, p: 1, method: 'exact' };
  const { ranks, ties } = rank([...x, ...y]);
  let r1 = 0;
  for (let i = 0; i < m; i++) r1 += ranks[i]!;
  const u1 = r1 - (m * (m + 1)) / 2;
  const u2 = m * n - u1;
  const uMin = Math.min(u1, u2);
  if (ties.length === 0 && m * n <= EXACT_MAX_PAIRS) {
    return { u: u1, p: Math.min(1, 2 * exactCdf(m, n, uMin)), method: 'exact' };
  }
  const total = m + n;
  const tieTerm = ties.reduce((s, t) => s + (t ** 3 - t), 0);
  const variance = ((m * n) / 12) * (total + 1 - tieTerm / (total * (total - 1)));
  if (variance <= 0) return { u: u1, p: 1, method: 'normal' };
  // Continuity correction: half a step towards the mean.
  const z = (Math.max(u1, u2) - (m * n) / 2 - 0.5) / Math.sqrt(variance);
  return { u: u1, p: Math.min(1, 2 * normalSf(z)), method: 'normal' };
}
