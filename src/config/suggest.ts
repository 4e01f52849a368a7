// "Did you mean …?" for names in config files: a misspelt field, key or event name gets the closest
// valid one (case-insensitive edit distance at most 2, or a case-only difference).

function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      best = Math.min(best, cur[j]!);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** The candidate closest to `name`, if one is close enough to be a likely typo. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    if (c === name) return undefined;
    const max = Math.min(2, Math.floor(Math.max(c.length, name.length) / 3));
    const d = distance(lower, c.toLowerCase(), max);
    if (d <= max && d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** ` (did you mean "x"?)`, or nothing. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const c = closest(name, candidates);
  return c === undefined ? '' : ` (did you mean "${c}"?)`;
}
