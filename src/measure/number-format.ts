// Numbers in the bench's tables, text and HTML alike: one format per column. A column of
// milliseconds gets the decimals its smallest non-zero value needs for two significant digits (at
// most three, at least none), and every cell of the column shows that many; counts are whole
// numbers with thousands separators; ratios have two decimals.

/** A table cell: text as it is, a number of milliseconds (formatted per column), or none (`—`). */
export type Cell = string | number | null;

/** Decimals for a column of values: two significant digits of the smallest non-zero one, 0 to 3. */
export function decimalsFor(values: readonly number[]): number {
  const nonZero = values.filter((v) => Number.isFinite(v) && v !== 0).map(Math.abs);
  if (nonZero.length === 0) return 0;
  const d = 1 - Math.floor(Math.log10(Math.min(...nonZero)));
  return Math.min(3, Math.max(0, d));
}

export const fixed = (v: number, decimals: number) =>
  v.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** A whole number with thousands separators. */
export const int = (v: number) => Math.round(v).toLocaleString('en-US');

/** A ratio as `2.00×` (`—` when unknown). */
export const times = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : `${v.toFixed(2)}×`;

/** A share as `42%` (`<1%` for a non-zero sliver). */
export const percent = (part: number, whole: number) => {
  if (!(whole > 0)) return '—';
  const p = (part / whole) * 100;
  return p > 0 && p < 1 ? '<1%' : `${Math.round(p)}%`;
};

/** The rows with every number column formatted to its own decimals. */
export function formatColumns(rows: readonly (readonly Cell[])[]): string[][] {
  const width = Math.max(0, ...rows.map((r) => r.length));
  const decimals = Array.from({ length: width }, (_, c) =>
    decimalsFor(rows.map((r) => r[c]).filter((v): v is number => typeof v === 'number')),
  );
  return rows.map((r) =>
    r.map((cell, c) => (cell === null ? '—' : typeof cell === 'number' ? fixed(cell, decimals[c]!) : cell)),
  );
}

/** A p-value as one format: three decimals, `<0.001` below (the JSON keeps the exact value). */
export const pValue = (p: number | null) => (p === null ? '—' : p < 0.001 ? '<0.001' : p.toFixed(3));
