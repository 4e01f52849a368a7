// Plain-text tables: the first column left-aligned, the others right-aligned, two spaces apart.
import { type Cell, formatColumns } from './number-format.js';

function grid(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A table whose number columns each have one format (header row first). */
export const table = (rows: readonly (readonly Cell[])[]) => grid(formatColumns(rows));
