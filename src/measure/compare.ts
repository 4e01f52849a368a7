// `hookwarden bench compare`: two saved runs, series by series (overall, per hook, per tenant, the
// baselines). Each series' p50/p90/p99 change, normalised by the baselines each run measured (so a
// slower machine is not a slower hookwarden), and a two-sided Mann-Whitney U test over the
// normalised per-block medians. A change counts when it is significant (p < alpha) AND larger than
// the threshold: "slower" then fails a CI gate.
import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { renderValue } from '../contract/messages.js';
import { BASELINE_LABELS, BASELINE_NAMES, type BaselineName } from './baselines.js';
import type { BenchResult, BlockSummary } from './bench-result.js';
import { mannWhitneyU } from './mann-whitney.js';
import { median as medianOf } from './quantile.js';

type Verdict = 'faster' | 'slower' | 'no significant change' | 'only in base' | 'only in new';

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
  /** Mann-Whitney U over the normalised block medians; null with fewer than 2 blocks on a side. */
  p: number | null;
  verdict: Verdict;
}

export interface CompareOptions {
  /** Smallest relative p50 change that counts, e.g. 0.05 for 5%. Default 0.05. */
  threshold?: number;
  /** Significance level of the test. Default 0.05. */
  alpha?: number;
  /** Divide by the baselines of each run. Default true. */
  normalize?: boolean;
}

export interface CompareResult {
  threshold: number;
  alpha: number;
  normalize: boolean;
  series: SeriesChange[];
  /** What differs between the runs besides speed: hooks, input, machine, settings. */
  notes: string[];
  /** True when a non-baseline series is "slower": `bench compare` exits 1. */
  regression: boolean;
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

/** Normalised block medians: each block's figure over its own block's reference baselines. */
function normalisedBlocks(r: BenchResult, s: Side, ref: Ref): number[] {
  const out: number[] = [];
  for (const b of r.blocks) {
    const v = s.blocks(b);
    const d = sum(ref, b.baselines);
    if (v !== undefined && b.dispatches > 0 && d > 0) out.push(v / d);
  }
  return out;
}

function compareSeries(
  base: BenchResult,
  next: BenchResult,
  kind: SeriesChange['kind'],
  id: string,
  o: Required<CompareOptions>,
): SeriesChange {
  const type = next.perHook[id]?.type ?? base.perHook[id]?.type;
  const ref = o.normalize ? referenceFor(kind, type, [base, next]) : null;
  const a = side(base, kind, id);
  const b = side(next, kind, id);
  const out = { kind, id, normalizedBy: ref?.label ?? null, base: pick(a.pct), new: pick(b.pct) };
  if (a.pct === null || b.pct === null)
    return { ...out, change: null, p: null, verdict: a.pct === null ? 'only in new' : 'only in base' };
  const da = sum(ref, baselineP50s(base));
  const db = sum(ref, baselineP50s(next));
  const rel = (x: number, y: number) => (x > 0 && da > 0 && db > 0 ? y / db / (x / da) - 1 : 0);
  const change = {
    p50: rel(a.pct.p50, b.pct.p50),
    p90: rel(a.pct.p90, b.pct.p90),
    p99: rel(a.pct.p99, b.pct.p99),
  };
  const xa = normalisedBlocks(base, a, ref);
  const xb = normalisedBlocks(next, b, ref);
  const p = xa.length >= 2 && xb.length >= 2 ? mannWhitneyU(xa, xb).p : null;
  // The direction and size that count: the median of the normalised block medians.
  const shift =
    xa.length > 0 && xb.length > 0 && medianOf(xa) > 0 ? medianOf(xb) / medianOf(xa) - 1 : change.p50;
  const significant =
    p !== null && p < o.alpha && Math.abs(shift) > o.threshold && Math.abs(change.p50) > o.threshold;
  const verdict: Verdict = !significant ? 'no significant change' : shift > 0 ? 'slower' : 'faster';
  return { ...out, change: round(change), p: p === null ? null : +p.toPrecision(4), verdict };
}

const r4 = (v: number) => Math.round(v * 10_000) / 10_000;
const pick = (p: Percentiles | null) => (p === null ? null : { p50: p.p50, p90: p.p90, p99: p.p99 });
const round = (p: Percentiles) => ({ p50: r4(p.p50), p90: r4(p.p90), p99: r4(p.p99) });

function differences(base: BenchResult, next: BenchResult): string[] {
  const notes: string[] = [];
  const digests = (r: BenchResult) => new Map(r.hooks.map((h) => [h.id, h]));
  const a = digests(base);
  const b = digests(next);
  for (const [id, h] of b) {
    const old = a.get(id);
    if (old === undefined) notes.push(`hook "${id}" is new`);
    else if (old.digest !== h.digest)
      notes.push(`hook "${id}" changed (digest ${old.digest.slice(7, 19)} → ${h.digest.slice(7, 19)})`);
    else if (old.isolation !== h.isolation)
      notes.push(`hook "${id}" runs in ${h.isolation} isolation (was ${old.isolation})`);
  }
  for (const id of a.keys()) if (!b.has(id)) notes.push(`hook "${id}" is gone`);
  if (base.event !== next.event) notes.push(`event ${base.event} → ${next.event}`);
  if (base.input.digest !== next.input.digest) notes.push('the input differs');
  for (const key of ['concurrency', 'tenants', 'iterations'] as const)
    if (base[key] !== next[key]) notes.push(`${key} ${base[key]} → ${next[key]}`);
  const m = (r: BenchResult) => `${r.machine.cpus} × ${r.machine.cpuModel}, Node ${r.machine.node}`;
  if (m(base) !== m(next)) notes.push(`machine ${m(base)} → ${m(next)}`);
  const v = (r: BenchResult) =>
    `${r.hookwarden.version}${r.hookwarden.commit === null ? '' : ` (${r.hookwarden.commit.slice(0, 7)}${r.hookwarden.dirty ? '+changes' : ''})`}`;
  if (v(base) !== v(next)) notes.push(`hookwarden ${v(base)} → ${v(next)}`);
  if (Math.min(base.blocks.length, next.blocks.length) < 5)
    notes.push('fewer than 5 blocks in a run: the test can hardly ever be significant; run more iterations');
  return notes;
}

const COMPARE_OPTION_KEYS = optionKeys<CompareOptions>()(['threshold', 'alpha', 'normalize']);

/** compareResults' options, checked: a typo or a nonsense level must not quietly loosen a CI gate. */
function resolveCompareOptions(options: CompareOptions): Required<CompareOptions> {
  if (typeof options !== 'object' || options === null)
    throw new HookwardenError('invalid_options', `options: expected an object, got ${renderValue(options)}`);
  refuseUnknownOptions(options, COMPARE_OPTION_KEYS, '');
  const o: Required<CompareOptions> = { threshold: 0.05, alpha: 0.05, normalize: true, ...options };
  const problems: string[] = [];
  if (!(typeof o.threshold === 'number' && Number.isFinite(o.threshold) && o.threshold >= 0))
    problems.push(`threshold: expected a number ≥ 0 (0.05 = 5%), got ${renderValue(o.threshold)}`);
  if (!(typeof o.alpha === 'number' && o.alpha > 0 && o.alpha < 1))
    problems.push(`alpha: expected a number between 0 and 1 (e.g. 0.05), got ${renderValue(o.alpha)}`);
  if (typeof o.normalize !== 'boolean')
    problems.push(`normalize: expected true or false, got ${renderValue(o.normalize)}`);
  if (problems.length > 0) throw new HookwardenError('invalid_options', problems.join('; '), { problems });
  return o;
}

export function compareResults(
  base: BenchResult,
  next: BenchResult,
  options: CompareOptions = {},
): CompareResult {
  const o = resolveCompareOptions(options);
  const series: SeriesChange[] = [compareSeries(base, next, 'overall', 'dispatch', o)];
  const ids = (f: (r: BenchResult) => object | undefined) => [
    ...new Set([...Object.keys(f(base) ?? {}), ...Object.keys(f(next) ?? {})]),
  ];
  for (const id of ids((r) => r.perHook)) series.push(compareSeries(base, next, 'hook', id, o));
  for (const id of ids((r) => r.perTenant)) series.push(compareSeries(base, next, 'tenant', id, o));
  // Per event only where it says more than the overall series: a replay mixes several events.
  const mixed = (r: BenchResult) => r.replay !== undefined || Object.keys(r.perEvent ?? {}).length > 1;
  if (mixed(base) || mixed(next))
    for (const id of ids((r) => r.perEvent)) series.push(compareSeries(base, next, 'event', id, o));
  for (const name of BASELINE_NAMES) series.push(compareSeries(base, next, 'baseline', name, o));
  const notes = differences(base, next);
  const moved = series.filter(
    (s) => s.kind === 'baseline' && (s.verdict === 'slower' || s.verdict === 'faster'),
  );
  for (const s of moved)
    notes.push(
      `the baselines moved: "${BASELINE_LABELS[s.id as BaselineName]}" is ${s.verdict} in the new run (p50 ${signed(s.change!.p50)}): the machine's speed differs between the runs${o.normalize ? '; the other series were divided by their baselines, so this is not counted against hookwarden' : ''}`,
    );
  return {
    threshold: o.threshold,
    alpha: o.alpha,
    normalize: o.normalize,
    series,
    notes,
    regression: series.some((s) => s.kind !== 'baseline' && s.verdict === 'slower'),
  };
}

/** `+12.3%` / `−4.0%`. */
export const signed = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v * 100).toFixed(1)}%`;
