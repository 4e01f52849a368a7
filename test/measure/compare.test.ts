// compareResults on results built in memory: the function under test is the comparison itself, so
// each run's conditions (CPU wait, steal, load) are the ones a run records, written as such.
import { describe, expect, it } from 'vitest';
import type { BenchResult } from '../../src/measure/bench-result.js';
import { compareResults } from '../../src/measure/compare.js';
import { formatCompareText } from '../../src/measure/format-compare.js';
import { benchResult, busy, otherBuild, QUIET } from '../helpers/bench-result.js';

const steady = (v: number, n = 10) => Array.from({ length: n }, (_, i) => v * (1 + ((i * 3) % 7) / 100));
const verdictOf = (c: ReturnType<typeof compareResults>, id: string) =>
  c.series.find((s) => s.id === id)!.verdict;

describe('compareResults', () => {
  it('calls a clearly slower hook and dispatch "slower" and flags a regression', () => {
    const base = benchResult();
    const next = benchResult({ noop: steady(3), overall: steady(3.5) }, otherBuild);
    const c = compareResults(base, next);
    const by = Object.fromEntries(c.series.map((s) => [`${s.kind}:${s.id}`, s]));
    expect(by['hook:noop']).toMatchObject({ verdict: 'slower', normalizedBy: 'spawnTrue' });
    expect(by['hook:noop']!.p!).toBeLessThan(0.001);
    expect(by['overall:dispatch']).toMatchObject({
      verdict: 'slower',
      normalizedBy: 'spawnTrue + piscinaEcho + quickJsEval',
    });
    expect(by['hook:guard']!.verdict).toBe('no significant change');
    expect([c.regression, c.inconclusive, c.outcome]).toEqual([true, false, 'regression']);
    expect(formatCompareText(c, 'a.json', 'b.json')).toMatch(
      /REGRESSION: dispatch, overall, hook noop got slower$/,
    );
  });

  it('calls a faster run "faster", which is no regression', () => {
    const c = compareResults(
      benchResult({ noop: steady(3), overall: steady(3.5) }),
      benchResult({}, otherBuild),
    );
    expect(verdictOf(c, 'noop')).toBe('faster');
    expect(c.outcome).toBe('no regression');
  });

  it('does not count a change within the threshold, however significant', () => {
    const base = benchResult();
    const next = benchResult(
      {
        noop: base.blocks.map((b) => b.perHook.noop! * 1.04),
        overall: base.blocks.map((b) => b.overall.p50 * 1.04),
      },
      otherBuild,
    );
    const c = compareResults(base, next, { threshold: 0.05 });
    expect(c.series.find((s) => s.id === 'noop')!.p!).toBeLessThan(0.05);
    expect(verdictOf(c, 'noop')).toBe('no significant change');
    expect(compareResults(benchResult(), next, { threshold: 0.01 }).regression).toBe(true);
  });
});

describe('compareResults: normalisation and what else differs', () => {
  it('divides by the baselines: a machine twice as slow is not a regression, and a note says the baselines moved', () => {
    const base = benchResult();
    const shape = {
      overall: steady(4),
      guard: steady(0.6),
      noop: steady(3),
      baselines: { piscinaEcho: steady(0.2), spawnTrue: steady(2.4), quickJsEval: steady(0.5) },
    };
    const c = compareResults(base, benchResult(shape, otherBuild));
    expect(c.regression).toBe(false);
    expect(c.series.filter((s) => s.kind !== 'baseline').map((s) => s.verdict)).toEqual([
      'no significant change',
      'no significant change',
      'no significant change',
    ]);
    expect(verdictOf(c, 'spawnTrue')).toBe('slower');
    expect(c.notes.join('\n')).toMatch(
      /the baselines moved: "raw spawn\('\/bin\/true'\)" is slower in the new run/,
    );
    // Raw, the same runs are a regression.
    expect(compareResults(base, benchResult(shape, otherBuild), { normalize: false }).regression).toBe(true);
  });

  it('reports hooks present in one run only, and what else differs between the runs', () => {
    const next = benchResult({}, { iterations: 50, concurrency: 4 });
    next.hooks = [{ ...next.hooks[0]!, digest: `sha256:${'9'.repeat(64)}` }];
    delete next.perHook.noop;
    for (const b of next.blocks) delete b.perHook.noop;
    const c = compareResults(benchResult(), next);
    expect(c.series.find((s) => s.id === 'noop')).toMatchObject({
      verdict: 'only in base',
      change: null,
      p: null,
      floor: null,
    });
    expect(c.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^hook "guard" changed \(digest 111111111111 → 999999999999\)$/),
        'hook "noop" is gone',
        'concurrency 1 → 4',
      ]),
    );
    expect(c.same).toBeNull();
  });

  it('with too few blocks, never calls a change significant, and says so', () => {
    const short = (v: number) => steady(v, 2);
    const baselines = { piscinaEcho: short(0.1), spawnTrue: short(1.2), quickJsEval: short(0.25) };
    const c = compareResults(
      benchResult({ overall: short(2), guard: short(0.3), noop: short(1.5), baselines }),
      benchResult({ overall: short(9), guard: short(3), noop: short(9), baselines }, otherBuild),
    );
    expect(c.regression).toBe(false);
    expect(c.notes.join('\n')).toMatch(/fewer than 5 blocks/);
  });
});

/** A run whose command hook `noop` took `ms` per call (± a few %), on a machine in `conditions`. */
function runOf(ms: number, extra: Partial<BenchResult> = {}, n = 20): BenchResult {
  const jitter = (v: number) => Array.from({ length: n }, (_, i) => v * (1 + (((i * 7) % 11) - 5) / 100));
  return benchResult({ noop: jitter(ms), overall: jitter(ms + 0.5), guard: jitter(0.3) }, extra);
}

describe('compareResults: a real slowdown between quiet runs', () => {
  it.each([
    ['a 3 ms command hook', 3],
    ['a 10 ms command hook', 10],
    ['a 40 ms command hook', 40],
  ])('%s 15 ms slower between two quiet runs is a regression', (_name, ms) => {
    const c = compareResults(runOf(ms), runOf(ms + 15, otherBuild));
    expect(verdictOf(c, 'noop')).toBe('slower');
    expect(c.series.find((s) => s.id === 'noop')!.floor!).toBeLessThan(0.05);
    expect(c.outcome).toBe('regression');
  });
});

describe('compareResults: one of two runs of one config under load', () => {
  it.each([
    ['the new run', 'new', { conditions: busy(0.4) }, 1.3],
    ['the new run, faster under load', 'new', { conditions: busy(0.35) }, 0.75],
    ['the base run', 'base', { conditions: busy(0.5) }, 1.35],
    ['the new run, its CPU time stolen', 'new', { conditions: busy(0.02, 0.3) }, 1.3],
  ] as const)(
    'identical runs, %s under load: inconclusive with the reason, not a regression',
    (_name, loaded, conditions, factor) => {
      // The same hooks and input, a moved figure: what a busy machine does to one of two runs.
      const quiet = runOf(4, otherBuild);
      const moved = runOf(4 * factor, conditions);
      const c = loaded === 'new' ? compareResults(quiet, moved) : compareResults(moved, quiet);
      const s = c.series.find((x) => x.id === 'noop')!;
      expect(s.p!).toBeLessThan(0.05);
      expect([s.verdict, c.regression, c.outcome]).toEqual(['inconclusive', false, 'inconclusive']);
      expect(s.reason).toMatch(
        new RegExp(`the ${loaded} run's main thread spent \\d+% of the run waiting for a CPU`),
      );
      if ((conditions.conditions.steal ?? 0) > 0)
        expect(s.reason).toMatch(/the hypervisor took 30% of the CPU time \(steal\)/);
      const text = formatCompareText(c, 'a.json', 'b.json');
      expect(text).toMatch(/^inconclusive, hook noop: /m);
      expect(text).toMatch(/^INCONCLUSIVE \(exit 3\): .*hook noop.*hookwarden bench ab/m);
    },
  );

  it('identical runs, one under load, with no change to see: still inconclusive, for the load hides one', () => {
    const c = compareResults(runOf(4, otherBuild), runOf(4, { conditions: busy(0.3) }));
    const s = c.series.find((x) => x.id === 'noop')!;
    expect(s.verdict).toBe('inconclusive');
    expect(s.reason).toMatch(
      /^a busy machine: .*a change within ±\d+% cannot be told from that, and the threshold is 5%$/,
    );
    // 1 / (1 − 0.3) − 1: the busier run's main thread lost 30% of the run.
    expect(c.loadFloor).toBeCloseTo(0.4286, 3);
    expect(s.floor!).toBeGreaterThanOrEqual(c.loadFloor);
  });

  it('an older result without conditions is judged by its load average', () => {
    const old = runOf(4, { machine: { ...runOf(4).machine, cpus: 2, loadAverage: [6, 5, 4] } });
    delete old.conditions;
    const c = compareResults(runOf(4, otherBuild), old);
    expect(c.runs.new).toMatchObject({ source: 'load average', cpuWait: null, loadPerCpu: 3 });
    expect(c.runs.new.contention).toBeCloseTo(2 / 3, 3);
    expect(verdictOf(c, 'noop')).toBe('inconclusive');
    expect(c.series.find((x) => x.id === 'noop')!.reason).toMatch(/a load average of 3\.00 per CPU/);
  });

  it("a change within a run's own drift is inconclusive: its blocks moved as much between its halves", () => {
    const base = runOf(4);
    // A quiet machine by its own account, yet the run's second half is 45% slower than its first.
    const drifting = Array.from({ length: 20 }, (_, i) => (i < 10 ? 4.2 : 6.1) * (1 + (i % 3) / 100));
    const next = benchResult({ noop: drifting, overall: drifting, guard: steady(0.3, 20) }, otherBuild);
    const c = compareResults(base, next);
    const s = c.series.find((x) => x.id === 'noop')!;
    expect(s.p!).toBeLessThan(0.05);
    expect(s.verdict).toBe('inconclusive');
    expect(s.reason).toMatch(
      /is within the noise floor \(±\d+%\): the new run's blocks drifted \d+% from the first half/,
    );
  });

  it("a 15 ms slowdown beyond even a busy run's floor is still a regression", () => {
    const c = compareResults(runOf(3), runOf(18, { ...otherBuild, conditions: busy(0.3) }));
    expect(verdictOf(c, 'noop')).toBe('slower');
    expect(c.outcome).toBe('regression');
  });

  it('one series slower and another inconclusive: a regression (exit 1 beats exit 3)', () => {
    const base = runOf(4);
    const next = runOf(4, { ...otherBuild, conditions: busy(0.3) });
    for (const b of next.blocks) b.perHook.noop! += 30;
    next.perHook.noop!.p50 += 30;
    const c = compareResults(base, next);
    expect(verdictOf(c, 'noop')).toBe('slower');
    expect(verdictOf(c, 'guard')).toBe('inconclusive');
    expect([c.regression, c.inconclusive, c.outcome]).toEqual([true, false, 'regression']);
  });
});

describe('compareResults names runs of one commit and one config', () => {
  it('says so, and a difference between them is the machine: inconclusive, not a regression', () => {
    const c = compareResults(runOf(3), runOf(18));
    expect(c.same).toEqual({ commit: 'a'.repeat(40) });
    expect(c.notes[0]).toBe(
      "both runs are the same commit (aaaaaaaaaaaa) and the same config (hooks by digest, input, settings): any difference is the machine's",
    );
    const s = c.series.find((x) => x.id === 'noop')!;
    expect(s.verdict).toBe('inconclusive');
    expect(s.reason).toMatch(
      /^\+\d+\.\d% between two runs of the same build and config: the machine changed, not hookwarden$/,
    );
    expect(c.outcome).toBe('inconclusive');
  });

  it.each([
    ['another commit', { hookwarden: { version: '0.1.0', commit: 'c'.repeat(40), dirty: false } }, null],
    ['another input', { input: { digest: `sha256:${'4'.repeat(64)}`, varied: false } }, null],
    ['other settings', { concurrency: 2 }, null],
    ['another config file name, the same hooks', { config: ['other/hooks.json'] }, 'same'],
    [
      'uncommitted changes',
      { hookwarden: { version: '0.1.0', commit: 'a'.repeat(40), dirty: true } },
      /^both runs are the same commit \(aaaaaaaaaaaa\) and config, but a checkout had uncommitted changes: the builds may differ$/,
    ],
    ['no commit (not a checkout)', { hookwarden: { version: '0.1.0', commit: null, dirty: null } }, null],
  ] as const)('%s', (_name, extra, expected) => {
    const c = compareResults(runOf(3), runOf(3, extra as Partial<BenchResult>));
    if (expected === 'same') expect(c.same).not.toBeNull();
    else expect(c.same).toBeNull();
    if (expected instanceof RegExp) expect(c.notes[0]).toMatch(expected);
    else if (expected === null) expect(c.notes.join('\n')).not.toMatch(/same commit/);
  });
});

describe('compareResults of interleaved runs (paired blocks)', () => {
  const pairedOf = (ms: number, extra: Partial<BenchResult> = {}) =>
    runOf(ms, { ...extra, conditions: busy(0.6) });

  it('tests the pairs: a slowdown under heavy load, which both sides met alike, is a regression', () => {
    const c = compareResults(pairedOf(4), pairedOf(7, otherBuild), { paired: true, normalize: false });
    expect(c.mode).toBe('interleaved');
    expect(c.loadFloor).toBe(0);
    const s = c.series.find((x) => x.id === 'noop')!;
    expect(s.verdict).toBe('slower');
    // 20 pairs, all slower (their ratios tied, so the normal approximation).
    expect(s.p!).toBeLessThan(1e-4);
    expect(s.shift!).toBeCloseTo(0.75, 1);
    expect(formatCompareText(c, 'base', 'new')).toMatch(/Wilcoxon signed-rank over the per-block ratios/);
  });

  it('pairs block i with block i: a drift both sides share cancels out', () => {
    const ramp = (v: number) => Array.from({ length: 20 }, (_, i) => v * (1 + i / 10));
    const a = benchResult({ noop: ramp(4), overall: ramp(4.5) });
    const b = benchResult(
      { noop: ramp(4).map((v) => v * 1.3), overall: ramp(4.5).map((v) => v * 1.3) },
      otherBuild,
    );
    const paired = compareResults(a, b, { paired: true, normalize: false });
    expect(verdictOf(paired, 'noop')).toBe('slower');
    expect(paired.series.find((x) => x.id === 'noop')!.floor).toBe(0);
    // Compared as separate runs, the same figures drift far more than 30%: inconclusive.
    expect(verdictOf(compareResults(a, b, { normalize: false }), 'noop')).toBe('inconclusive');
  });

  it('refuses runs with different block counts', () => {
    expect(() => compareResults(runOf(3, {}, 20), runOf(3, otherBuild, 10), { paired: true })).toThrow(
      /paired: the runs have 20 and 10 blocks/,
    );
  });

  it('keeps the quiet default when the runs are not paired', () => {
    expect(compareResults(runOf(3), runOf(3)).runs.base).toMatchObject({
      source: 'measured',
      cpuWait: QUIET.cpuWait,
      steal: 0,
    });
  });
});
