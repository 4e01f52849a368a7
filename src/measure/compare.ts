// `hookwarden bench compare`: two saved runs, series by series (overall, per hook, per tenant, per
// event, the baselines). Each series' p50/p90/p99 change, normalised by the baselines each run
// measured (so a slower machine is not a slower hookwarden), a test over the normalised per-block
// medians, and a noise floor read from the runs themselves (their CPU wait and steal, and their
// own drift). A change counts when it is significant (p < alpha), larger than the threshold AND
// beyond the floor: "slower" then fails a CI gate. A run too noisy to tell is "inconclusive".
import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { renderValue } from '../contract/messages.js';
import { BASELINE_LABELS, BASELINE_NAMES, type BaselineName } from './baselines.js';
import type { BenchResult } from './bench-result.js';
import { differences, sameBuildAndConfig, sameLine } from './compare-notes.js';
import { compareSeries, type SeriesChange, type SeriesContext } from './compare-series.js';
import { asChange, loadFloor, loadReason, type RunNoise, runNoise } from './noise-floor.js';

export type { SeriesChange } from './compare-series.js';

export interface CompareOptions {
  /** Smallest relative p50 change that counts, e.g. 0.05 for 5%. Default 0.05. */
  threshold?: number;
  /** Significance level of the test. Default 0.05. */
  alpha?: number;
  /** Divide by the baselines of each run. Default true. */
  normalize?: boolean;
  /**
   * The runs' blocks alternated in one window (`bench ab`): pair them by index and test the pairs
   * (Wilcoxon signed-rank); the load is then the same for both and makes no floor. Default false.
   */
  paired?: boolean;
}

/** What the comparison decides: exit 1, exit 3, or exit 0 of `bench compare` and `bench ab`. */
export type CompareOutcome = 'regression' | 'inconclusive' | 'no regression';

export interface CompareResult {
  /** Separate runs (`bench compare`), or blocks alternated in one window (`bench ab`). */
  mode: 'separate' | 'interleaved';
  threshold: number;
  alpha: number;
  normalize: boolean;
  /** Each run's conditions as the floor reads them: CPU wait, steal, load. */
  runs: { base: RunNoise; new: RunNoise };
  /** The floor the busier run's machine sets on every series (0 when interleaved), as a change. */
  loadFloor: number;
  /** Both runs are one clean commit with one config (hooks by digest, input, settings); else null. */
  same: { commit: string } | null;
  series: SeriesChange[];
  /** What differs between the runs besides speed: hooks, input, machine, settings. */
  notes: string[];
  /** True when a non-baseline series is "slower": exit 1. */
  regression: boolean;
  /** True when none is slower but one is "inconclusive": exit 3. */
  inconclusive: boolean;
  outcome: CompareOutcome;
}

const COMPARE_OPTION_KEYS = optionKeys<CompareOptions>()(['threshold', 'alpha', 'normalize', 'paired']);

/** compareResults' options, checked: a typo or a nonsense level must not quietly loosen a CI gate. */
function resolveCompareOptions(options: CompareOptions): Required<CompareOptions> {
  if (typeof options !== 'object' || options === null)
    throw new HookwardenError('invalid_options', `options: expected an object, got ${renderValue(options)}`);
  refuseUnknownOptions(options, COMPARE_OPTION_KEYS, '');
  const o: Required<CompareOptions> = {
    threshold: 0.05,
    alpha: 0.05,
    normalize: true,
    paired: false,
    ...options,
  };
  const problems: string[] = [];
  if (!(typeof o.threshold === 'number' && Number.isFinite(o.threshold) && o.threshold >= 0))
    problems.push(`threshold: expected a number ≥ 0 (0.05 = 5%), got ${renderValue(o.threshold)}`);
  if (!(typeof o.alpha === 'number' && o.alpha > 0 && o.alpha < 1))
    problems.push(`alpha: expected a number between 0 and 1 (e.g. 0.05), got ${renderValue(o.alpha)}`);
  if (typeof o.normalize !== 'boolean')
    problems.push(`normalize: expected true or false, got ${renderValue(o.normalize)}`);
  if (typeof o.paired !== 'boolean')
    problems.push(`paired: expected true or false, got ${renderValue(o.paired)}`);
  if (problems.length > 0) throw new HookwardenError('invalid_options', problems.join('; '), { problems });
  return o;
}

export function compareResults(
  base: BenchResult,
  next: BenchResult,
  options: CompareOptions = {},
): CompareResult {
  const o = resolveCompareOptions(options);
  if (o.paired && base.blocks.length !== next.blocks.length)
    throw new HookwardenError(
      'invalid_options',
      `paired: the runs have ${base.blocks.length} and ${next.blocks.length} blocks; runs interleaved by \`bench ab\` have as many`,
    );
  const runs = { base: runNoise(base), new: runNoise(next) };
  const loadLog = o.paired ? 0 : loadFloor([runs.base, runs.new]);
  const same = sameBuildAndConfig(base, next);
  const ctx: SeriesContext = {
    ...o,
    loadLog,
    loadReason: loadReason(runs.base, runs.new),
    same: same !== null,
  };
  const series = allSeries(base, next, ctx);
  const notes = differences(base, next);
  const sameNote = sameLine(base, next);
  if (sameNote !== null) notes.unshift(sameNote);
  const moved = series.filter(
    (s) => s.kind === 'baseline' && (s.verdict === 'slower' || s.verdict === 'faster'),
  );
  for (const s of moved)
    notes.push(
      `the baselines moved: "${BASELINE_LABELS[s.id as BaselineName]}" is ${s.verdict} in the new run (p50 ${signed(s.change!.p50)}): the machine's speed differs between the runs${o.normalize ? '; the other series were divided by their baselines, so this is not counted against hookwarden' : ''}`,
    );
  const counted = series.filter((s) => s.kind !== 'baseline');
  const regression = counted.some((s) => s.verdict === 'slower');
  const inconclusive = !regression && counted.some((s) => s.verdict === 'inconclusive');
  return {
    mode: o.paired ? 'interleaved' : 'separate',
    threshold: o.threshold,
    alpha: o.alpha,
    normalize: o.normalize,
    runs,
    loadFloor: asChange(loadLog),
    same,
    series,
    notes,
    regression,
    inconclusive,
    outcome: regression ? 'regression' : inconclusive ? 'inconclusive' : 'no regression',
  };
}

/** Every series of either run: overall, hooks, tenants, events (of a mix), baselines. */
function allSeries(base: BenchResult, next: BenchResult, ctx: SeriesContext): SeriesChange[] {
  const series: SeriesChange[] = [compareSeries(base, next, 'overall', 'dispatch', ctx)];
  const ids = (f: (r: BenchResult) => object | undefined) => [
    ...new Set([...Object.keys(f(base) ?? {}), ...Object.keys(f(next) ?? {})]),
  ];
  for (const id of ids((r) => r.perHook)) series.push(compareSeries(base, next, 'hook', id, ctx));
  for (const id of ids((r) => r.perTenant)) series.push(compareSeries(base, next, 'tenant', id, ctx));
  // Per event only where it says more than the overall series: a replay mixes several events.
  const mixed = (r: BenchResult) => r.replay !== undefined || Object.keys(r.perEvent ?? {}).length > 1;
  if (mixed(base) || mixed(next))
    for (const id of ids((r) => r.perEvent)) series.push(compareSeries(base, next, 'event', id, ctx));
  for (const name of BASELINE_NAMES) series.push(compareSeries(base, next, 'baseline', name, ctx));
  return series;
}

/** `+12.3%` / `−4.0%`. */
export const signed = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v * 100).toFixed(1)}%`;
