import { describe, expect, it } from 'vitest';
import { compareResults } from '../../src/measure/compare.js';
import { formatCompareText } from '../../src/measure/format-compare.js';
import { benchResult } from '../helpers/bench-result.js';

const steady = (v: number, n = 10) => Array.from({ length: n }, (_, i) => v * (1 + ((i * 3) % 7) / 100));

describe('compareResults', () => {
  it('calls a clearly slower hook and dispatch "slower" and flags a regression', () => {
    const base = benchResult();
    const next = benchResult({ noop: steady(3), overall: steady(3.5) });
    const c = compareResults(base, next);
    const by = Object.fromEntries(c.series.map((s) => [`${s.kind}:${s.id}`, s]));
    expect(by['hook:noop']).toMatchObject({ verdict: 'slower', normalizedBy: 'spawnTrue' });
    expect(by['hook:noop']!.p!).toBeLessThan(0.001);
    expect(by['overall:dispatch']).toMatchObject({
      verdict: 'slower',
      normalizedBy: 'spawnTrue + piscinaEcho + quickJsEval',
    });
    expect(by['hook:guard']!.verdict).toBe('no significant change');
    expect(c.regression).toBe(true);
    expect(formatCompareText(c, 'a.json', 'b.json')).toMatch(
      /REGRESSION: dispatch, overall, hook noop got slower/,
    );
  });

  it('calls a faster run "faster", which is no regression', () => {
    const c = compareResults(benchResult({ noop: steady(3), overall: steady(3.5) }), benchResult());
    expect(c.series.find((s) => s.id === 'noop')!.verdict).toBe('faster');
    expect(c.regression).toBe(false);
  });

  it('does not count a change within the threshold, however significant', () => {
    const base = benchResult();
    const next = benchResult({
      noop: base.blocks.map((b) => b.perHook.noop! * 1.04),
      overall: base.blocks.map((b) => b.overall.p50 * 1.04),
    });
    const c = compareResults(base, next, { threshold: 0.05 });
    expect(c.series.find((s) => s.id === 'noop')!.p!).toBeLessThan(0.05);
    expect(c.series.find((s) => s.id === 'noop')!.verdict).toBe('no significant change');
    expect(compareResults(benchResult(), next, { threshold: 0.01 }).regression).toBe(true);
  });

  it('divides by the baselines: a machine twice as slow is not a regression, and a note says the baselines moved', () => {
    const base = benchResult();
    const shape = {
      overall: steady(4),
      guard: steady(0.6),
      noop: steady(3),
      baselines: { piscinaEcho: steady(0.2), spawnTrue: steady(2.4), quickJsEval: steady(0.5) },
    };
    const c = compareResults(base, benchResult(shape));
    expect(c.regression).toBe(false);
    expect(c.series.filter((s) => s.kind !== 'baseline').map((s) => s.verdict)).toEqual([
      'no significant change',
      'no significant change',
      'no significant change',
    ]);
    expect(c.series.find((s) => s.id === 'spawnTrue')!.verdict).toBe('slower');
    expect(c.notes.join('\n')).toMatch(
      /the baselines moved: "raw spawn\('\/bin\/true'\)" is slower in the new run/,
    );
    // Raw, the same runs are a regression.
    expect(compareResults(base, benchResult(shape), { normalize: false }).regression).toBe(true);
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
    });
    expect(c.notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^hook "guard" changed \(digest 111111111111 → 999999999999\)$/),
        'hook "noop" is gone',
        'concurrency 1 → 4',
      ]),
    );
  });

  it('with too few blocks, never calls a change significant, and says so', () => {
    const short = (v: number) => steady(v, 2);
    const c = compareResults(
      benchResult({
        overall: short(2),
        guard: short(0.3),
        noop: short(1.5),
        baselines: { piscinaEcho: short(0.1), spawnTrue: short(1.2), quickJsEval: short(0.25) },
      }),
      benchResult({
        overall: short(9),
        guard: short(3),
        noop: short(9),
        baselines: { piscinaEcho: short(0.1), spawnTrue: short(1.2), quickJsEval: short(0.25) },
      }),
    );
    expect(c.regression).toBe(false);
    expect(c.notes.join('\n')).toMatch(/fewer than 5 blocks/);
  });
});
