// Declarations of check-size.mjs (plain JavaScript: it runs before anything is compiled).

/** No file of src/ or sandbox/ is longer (lines). */
export const MAX_FILE_LINES: number;
/** No function of src/ or sandbox/ is longer (lines, first to last, the whole body). */
export const MAX_FUNCTION_LINES: number;
/** The folders checked. */
export const ROOTS: string[];
/** The functions of one TypeScript source longer than `max` lines. */
export function longFunctions(
  file: string,
  text: string,
  max?: number,
): { line: number; name: string; lines: number }[];
/** Every offender under `roots` of the checkout `root`, sorted by path and line. */
export function offenders(
  root: string,
  roots?: string[],
): { path: string; line: number; kind: 'file' | 'function'; name: string; lines: number }[];
