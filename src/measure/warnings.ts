// Hyperfine-style warnings about a run's own trustworthiness, read from its block medians: blocks
// that disagree with each other, baselines that moved during the run (the machine got busier or
// quieter), a slow first block (warm-up not done), and rare very slow outliers.
import { BASELINE_LABELS, BASELINE_NAMES } from './baselines.js';
import type { BenchResult } from './bench-result.js';
import { ascending, median as medianOf, quantile } from './quantile.js';

/** Block medians spread more than this (interquartile range ÷ median): the run is noisy. */
const BLOCK_SPREAD_WARN = 0.25;
/** A baseline's median over the second half of the blocks differs from the first half's by this factor. */
const BASELINE_DRIFT_WARN = 1.25;

const pct = (v: number) => `${Math.round(v * 100)}%`;

/** The first words of a security warning: the report and the text output mark such lines red. */
export const SECURITY = 'security:';

/**
 * One warning per hook that failed open on an event that can deny: the calls went on without the
 * guard's verdict. Listed first, before the warnings about the run's own trustworthiness.
 */
export function securityWarnings(perHook: BenchResult['perHook']): string[] {
  const out: string[] = [];
  for (const [id, h] of Object.entries(perHook)) {
    const f = h.failures;
    if (f === undefined || f.securityFailures === 0) continue;
    const codes = Object.entries(h.errors)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    out.push(
      `${SECURITY} hook "${id}" failed open ${f.securityFailures} time${f.securityFailures === 1 ? '' : 's'} on an event that can deny (${codes}): those calls went on without its verdict; give it onError: "deny" (fail closed) or the time it needs (timeoutMs)`,
    );
  }
  return out;
}
const fixed = (v: number) => String(+v.toPrecision(3));

export function benchWarnings(
  r: Pick<BenchResult, 'blocks' | 'overall' | 'errors' | 'concurrency'>,
): string[] {
  const out: string[] = [];
  const blocks = r.blocks.filter((b) => b.dispatches > 0);
  if (blocks.length >= 4) {
    const p50s = ascending(blocks.map((b) => b.overall.p50));
    const median = quantile(p50s, 0.5);
    const spread = median > 0 ? (quantile(p50s, 0.75) - quantile(p50s, 0.25)) / median : 0;
    if (spread > BLOCK_SPREAD_WARN)
      out.push(
        `high variance between blocks: the blocks' median latencies spread ${pct(spread)} of their median (interquartile range ${fixed(quantile(p50s, 0.25))}–${fixed(quantile(p50s, 0.75))} ms); other programs may be running: close them, or run more iterations`,
      );
    const first = blocks[0]!.overall.p50;
    const rest = medianOf(blocks.slice(1).map((b) => b.overall.p50));
    if (rest > 0 && first > 1.5 * rest)
      out.push(
        `the first block was ${fixed(first / rest)}× slower than the others (median ${fixed(first)} vs ${fixed(rest)} ms): warm-up was not over; raise --warmup`,
      );
    for (const name of BASELINE_NAMES) {
      const values = blocks.map((b) => b.baselines[name]).filter((v) => v > 0);
      if (values.length < 4) continue;
      const half = Math.floor(values.length / 2);
      const before = medianOf(values.slice(0, half));
      const after = medianOf(values.slice(values.length - half));
      const factor = Math.max(before, after) / Math.min(before, after);
      if (factor > BASELINE_DRIFT_WARN)
        out.push(
          `the machine was busy: baseline "${BASELINE_LABELS[name]}" moved during the run (median ${fixed(before)} ms in the first half of the blocks, ${fixed(after)} ms in the second, ${fixed(factor)}×); ratios and comparisons are less reliable`,
        );
    }
  }
  if (r.overall.p50 > 0 && r.overall.max > 50 * r.overall.p50 && r.overall.count >= 100)
    out.push(
      `slow outliers: the slowest dispatch took ${fixed(r.overall.max)} ms, ${Math.round(r.overall.max / r.overall.p50)}× the median; look at p99.9 and max with care`,
    );
  const failures = Object.values(r.errors).reduce((a, b) => a + b, 0);
  if (failures > 0)
    out.push(
      `${failures} hook failure${failures === 1 ? '' : 's'} during the run (${Object.entries(r.errors)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}): failing hooks may be faster or slower than working ones`,
    );
  if (r.concurrency > 1)
    out.push(
      `concurrency ${r.concurrency}: dispatch latencies include queueing and the baselines do not, so the ratios are not like for like; compare throughput, or run at --concurrency 1 for ratios`,
    );
  return out;
}
