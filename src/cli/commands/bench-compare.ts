// `hookwarden bench report <result.json>` and `hookwarden bench compare <base.json> <new.json>`:
// saved runs rendered again, and two runs compared series by series (exit 1 on a regression, 3 when
// the runs cannot tell).
import { type CompareResult, compareResults } from '../../measure/compare.js';
import { EXIT_INCONCLUSIVE, formatCompareText } from '../../measure/format-compare.js';
import { readBenchResult } from '../../measure/load-result.js';
import { renderCompareReport } from '../../measure/report-compare.js';
import { renderHtmlReport } from '../../measure/report-html.js';
import { UsageError } from '../usage-error.js';
import { checkReportPath, writeReport } from './bench.js';

/** `5%`, `5` (percent) or `12.5%` → 0.05 / 0.05 / 0.125. */
export function parsePercent(flag: string, value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(value);
  const n = m === null ? Number.NaN : Number(m[1]);
  if (!Number.isFinite(n) || n > 1000)
    throw new UsageError(`${flag}: expected a percentage such as 5%, got ${JSON.stringify(value)}`);
  return n / 100;
}

export function parseAlpha(value: string): number {
  const n = /^\s*0?\.\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!(n > 0 && n < 0.5))
    throw new UsageError(
      `--alpha: expected a number between 0 and 0.5 such as 0.05, got ${JSON.stringify(value)}`,
    );
  return n;
}

const load = (path: string) => {
  try {
    return readBenchResult(path);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
};

export function runBenchReport(file: string, flags: { out: string }): number {
  checkReportPath(flags.out, '--out');
  const result = load(file);
  writeReport(flags.out, renderHtmlReport(result), '--out');
  process.stdout.write(`report: ${flags.out}\n`);
  return 0;
}

export interface CompareFlags {
  threshold?: string;
  alpha?: string;
  json?: boolean;
  report?: string;
  /** Commander's `--no-normalize`. */
  normalize?: boolean;
}

export function runBenchCompare(baseFile: string, newFile: string, flags: CompareFlags): number {
  const threshold = flags.threshold === undefined ? 0.05 : parsePercent('--threshold', flags.threshold);
  const alpha = flags.alpha === undefined ? 0.05 : parseAlpha(flags.alpha);
  if (flags.report !== undefined) checkReportPath(flags.report);
  const base = load(baseFile);
  const next = load(newFile);
  const c = compareResults(base, next, { threshold, alpha, normalize: flags.normalize !== false });
  if (flags.report !== undefined)
    writeReport(flags.report, renderCompareReport(base, next, c, baseFile, newFile));
  process.stdout.write(
    flags.json === true
      ? `${JSON.stringify({ base: baseFile, new: newFile, ...c })}\n`
      : `${formatCompareText(c, baseFile, newFile)}\n`,
  );
  if (flags.report !== undefined && flags.json !== true) process.stdout.write(`report: ${flags.report}\n`);
  return exitStatus(c);
}

/** 1 for a regression, EXIT_INCONCLUSIVE when the runs cannot tell, 0 otherwise. */
export const exitStatus = (c: CompareResult) => (c.regression ? 1 : c.inconclusive ? EXIT_INCONCLUSIVE : 0);
