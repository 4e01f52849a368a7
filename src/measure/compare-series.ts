// One series of `bench compare` (the overall dispatch, a hook, a tenant, an event, a baseline):
// its percentile changes after normalisation, the test over its block medians, its noise floor,
// and the verdict. Separate runs: a Mann-Whitney U test of the two runs' normalised block medians,
// and a floor from each run's drift and the busier run's CPU wait. Interleaved runs (`bench ab`):
// the blocks are paired by index (each pair ran back to back in one window), so a Wilcoxon
// signed-rank test of the pairs' log ratios, and a floor from the drift of those ratios alone.
import { BASELINE_NAMES, type BaselineName } from './baselines.js';
import type { BenchResult, BlockSummary } from './bench-result.js';
import { mannWhitneyU } from './mann-whitney.js';
import { asChange, drift, floorText, logDrift } from './noise-floor.js';
import { median as medianOf } from './quantile.js';
import { hodgesLehmann, wilcoxonSignedRank } from './wilcoxon.js';

type Verdict =
  | 'faster'
  | 'slower'
  | 'no significant change'
  | 'inconclusive'
  | 'only in base'
  | 'only in new';

interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
}

export interface SeriesChange {
  kind: 'overall' | 'hook' | 'tenant' | 'event' | 'baseline';
  /** Hook or tenant id, event name, baseline name; `dispatch` for overall. */
  id: string;
  /** What the series was divided by in each run (`null`: compared raw, as the baselines are). */
  normalizedBy: string | null;
  /** Raw figures of each run, ms (null when the series is missing from that run). */
  base: Percentiles | null;
  new: Percentiles | null;
  /** Relative change of each percentile after normalisation: +0.10 = 10% slower. */
  change: Percentiles | null;
  /**
   * The change the verdict is about, +0.10 = 10% slower: separate runs, the change of the median of
   * the normalised block medians; interleaved runs, the Hodges-Lehmann estimate of the pairs' ratio.
   */
  shift: number | null;
  /** Two-sided p-value of the test (null with fewer than 2 blocks on a side, or 2 pairs). */
  p: number | null;
  /** A change within ±floor could be the runs' noise (their load, steal and drift); null for baselines. */
  floor: number | null;
  verdict: Verdict;
  /** Why the verdict is inconclusive. */
  reason?: string;
}

/** What the whole comparison decides once, for every series. */
export interface SeriesContext {
  threshold: number;
  alpha: number;
  normalize: boolean;
  paired: boolean;
  /** The log floor of the busier run's machine (0 for interleaved runs: both saw the same one). */
  loadLog: number;
  /** The clause that says why, when it counts. */
  loadReason: string;
  /** Both runs are the same build and config: whatever moved, the machine moved it. */
  same: boolean;
}

type Ref = { label: string; names: BaselineName[] } | null;

/** The floor a series is measured against: a command hook spawn, a JS hook eval, a dispatch both. */
function referenceFor(kind: SeriesChange['kind'], type: string | undefined, runs: BenchResult[]): Ref {
  if (kind === 'baseline') return null;
  if (kind === 'hook') {
    if (type === 'command') return { label: 'spawnTrue', names: ['spawnTrue'] };
    if (type === 'js') return { label: 'quickJsEval', names: ['quickJsEval'] };
    return null;
  }
  const types = new Set(runs.flatMap((r) => Object.values(r.perHook).map((h) => h.type)));
  const names: BaselineName[] = [];
  if (types.has('command')) names.push('spawnTrue');
  if (types.has('js')) names.push('piscinaEcho', 'quickJsEval');
  return names.length === 0 ? null : { label: names.join(' + '), names };
}

const baselineP50s = (r: BenchResult) =>
  Object.fromEntries(BASELINE_NAMES.map((n) => [n, r.baselines[n].p50])) as Record<BaselineName, number>;

const sum = (ref: Ref, values: Record<BaselineName, number>) =>
  ref === null ? 1 : ref.names.reduce((s, n) => s + values[n], 0);

interface Side {
  pct: Percentiles | null;
  blocks: (b: BlockSummary) => number | undefined;
}

function side(r: BenchResult, kind: SeriesChange['kind'], id: string): Side {
  switch (kind) {
    case 'overall':
      return { pct: r.overall, blocks: (b) => b.overall.p50 };
    case 'hook': {
      const h = r.perHook[id];
      return { pct: h !== undefined && h.count > 0 ? h : null, blocks: (b) => b.perHook[id] };
    }
    case 'tenant':
      return { pct: r.perTenant?.[id] ?? null, blocks: (b) => b.perTenant?.[id] };
    case 'event': {
      const e = r.perEvent?.[id];
      return {
        pct: e !== undefined && e.dispatch.count > 0 ? e.dispatch : null,
        blocks: (b) => b.perEvent?.[id],
      };
    }
    case 'baseline':
      return { pct: r.baselines[id as BaselineName], blocks: (b) => b.baselines[id as BaselineName] };
  }
}

/** A block's figure over its own block's reference baselines; undefined when it has none. */
function normalised(b: BlockSummary, s: Side, ref: Ref): number | undefined {
  const v = s.blocks(b);
  const d = sum(ref, b.baselines);
  return v !== undefined && v > 0 && b.dispatches > 0 && d > 0 ? v / d : undefined;
}

const defined = (values: (number | undefined)[]) => values.filter((v): v is number => v !== undefined);

/** The test, the shift (log) and the drift (log) of separate runs, or of paired blocks. */
function test(base: BenchResult, next: BenchResult, a: Side, b: Side, ref: Ref, paired: boolean) {
  if (paired) {
    const d: number[] = [];
    for (let i = 0; i < Math.min(base.blocks.length, next.blocks.length); i++) {
      const x = normalised(base.blocks[i]!, a, ref);
      const y = normalised(next.blocks[i]!, b, ref);
      if (x !== undefined && y !== undefined) d.push(Math.log(y / x));
    }
    const p = d.length >= 2 ? wilcoxonSignedRank(d).p : null;
    return { p, shiftLog: d.length > 0 ? hodgesLehmann(d) : null, driftLog: logDrift(d), drifted: 'pairs' };
  }
  const xa = defined(base.blocks.map((blk) => normalised(blk, a, ref)));
  const xb = defined(next.blocks.map((blk) => normalised(blk, b, ref)));
  const p = xa.length >= 2 && xb.length >= 2 ? mannWhitneyU(xa, xb).p : null;
  const shiftLog = xa.length > 0 && xb.length > 0 ? Math.log(medianOf(xb) / medianOf(xa)) : null;
  const [da, db] = [drift(xa), drift(xb)];
  return { p, shiftLog, driftLog: Math.max(da, db), drifted: da >= db ? 'base run' : 'new run' };
}

const pct = (v: number) => `${Math.round(v * 100)}%`;
const signed = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v * 100).toFixed(1)}%`;

interface Judged {
  verdict: Verdict;
  reason?: string;
}

/** The verdict of a series that is not a baseline, from its test, its shift and its floor. */
function judge(c: SeriesContext, p: number | null, shift: number, p50: number, t: ReturnType<typeof test>) {
  const floorLog = t.driftLog + c.loadLog;
  const seen = p !== null && p < c.alpha && Math.abs(shift) > c.threshold && Math.abs(p50) > c.threshold;
  const beyond = Math.abs(Math.log1p(shift)) > floorLog;
  if (seen && beyond && c.same)
    return {
      verdict: 'inconclusive',
      reason: `${signed(shift)} between two runs of the same build and config: the machine changed, not hookwarden`,
    } satisfies Judged;
  if (seen && beyond) return { verdict: shift > 0 ? 'slower' : 'faster' } satisfies Judged;
  const parts: string[] = [];
  if (t.driftLog >= 0.005)
    parts.push(
      `the ${t.drifted === 'pairs' ? "pairs' ratio" : `${t.drifted}'s blocks`} drifted ${pct(asChange(t.driftLog))} from the first half of the run to the second`,
    );
  if (c.loadLog >= 0.005) parts.push(c.loadReason);
  if (seen)
    return {
      verdict: 'inconclusive',
      reason: `${signed(shift)} is within the noise floor (${floorText(asChange(floorLog))})${parts.length === 0 ? '' : `: ${parts.join('; ')}`}`,
    } satisfies Judged;
  if (c.loadLog > Math.log1p(c.threshold))
    return {
      verdict: 'inconclusive',
      reason: `a busy machine: ${c.loadReason}; a change within ${floorText(asChange(floorLog))} cannot be told from that, and the threshold is ${pct(c.threshold)}`,
    } satisfies Judged;
  return { verdict: 'no significant change' } satisfies Judged;
}

const r4 = (v: number) => Math.round(v * 10_000) / 10_000;
const pick = (p: Percentiles | null) => (p === null ? null : { p50: p.p50, p90: p.p90, p99: p.p99 });
const round = (p: Percentiles) => ({ p50: r4(p.p50), p90: r4(p.p90), p99: r4(p.p99) });

export function compareSeries(
  base: BenchResult,
  next: BenchResult,
  kind: SeriesChange['kind'],
  id: string,
  c: SeriesContext,
): SeriesChange {
  const type = next.perHook[id]?.type ?? base.perHook[id]?.type;
  const ref = c.normalize ? referenceFor(kind, type, [base, next]) : null;
  const a = side(base, kind, id);
  const b = side(next, kind, id);
  const out = { kind, id, normalizedBy: ref?.label ?? null, base: pick(a.pct), new: pick(b.pct) };
  if (a.pct === null || b.pct === null)
    return {
      ...out,
      change: null,
      shift: null,
      p: null,
      floor: null,
      verdict: a.pct === null ? 'only in new' : 'only in base',
    };
  const da = sum(ref, baselineP50s(base));
  const db = sum(ref, baselineP50s(next));
  const rel = (x: number, y: number) => (x > 0 && da > 0 && db > 0 ? y / db / (x / da) - 1 : 0);
  const change = {
    p50: rel(a.pct.p50, b.pct.p50),
    p90: rel(a.pct.p90, b.pct.p90),
    p99: rel(a.pct.p99, b.pct.p99),
  };
  const t = test(base, next, a, b, ref, c.paired);
  const shift = t.shiftLog === null ? change.p50 : Math.expm1(t.shiftLog);
  const p = t.p === null ? null : +t.p.toPrecision(4);
  const figures = { ...out, change: round(change), shift: r4(shift), p };
  if (kind === 'baseline') {
    // The baselines are the machine: compared raw, only to say that it changed.
    const moved =
      p !== null && p < c.alpha && Math.abs(shift) > c.threshold && Math.abs(change.p50) > c.threshold;
    return {
      ...figures,
      floor: null,
      verdict: !moved ? 'no significant change' : shift > 0 ? 'slower' : 'faster',
    };
  }
  return { ...figures, floor: asChange(t.driftLog + c.loadLog), ...judge(c, p, shift, change.p50, t) };
}
