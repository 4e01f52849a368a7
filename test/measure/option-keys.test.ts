// hookwarden/bench's options objects refuse keys they do not know (issue 23 finding 6's class): a
// typo in a benchmark or a CI gate's options must not quietly run something else.
import { describe, expect, it } from 'vitest';
import { compareResults } from '../../src/measure/compare.js';
import { Histogram } from '../../src/measure/histogram.js';
import { runBench } from '../../src/measure/run-bench.js';
import { benchResult } from '../helpers/bench-result.js';

describe('hookwarden/bench options', () => {
  it('runBench refuses an unknown key, naming the one meant, before it runs anything', async () => {
    const err = await runBench({ event: 'Stop', polcy: '/etc/hookwarden/policy.json' } as never).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: 'invalid_options' });
    expect(String((err as Error).message)).toContain('polcy: unknown option (did you mean "policy"?)');
    await expect(runBench({ event: 'Stop', iteration: 5 } as never)).rejects.toThrow(
      /iteration: unknown option \(did you mean "iterations"\?\)/,
    );
  });

  it('compareResults refuses unknown keys and levels that would loosen the gate', () => {
    const r = benchResult();
    expect(() => compareResults(r, r, { treshold: 0.5 } as never)).toThrow(
      /treshold: unknown option \(did you mean "threshold"\?\)/,
    );
    expect(() => compareResults(r, r, { alpha: 1.5 })).toThrow(/alpha: expected a number between 0 and 1/);
    expect(() => compareResults(r, r, { threshold: Number.NaN })).toThrow(/threshold: expected a number ≥ 0/);
    expect(() => compareResults(r, r, { normalize: 'no' as never })).toThrow(
      /normalize: expected true or false/,
    );
    expect(() => compareResults(r, r, null as never)).toThrow(/options: expected an object/);
    expect(compareResults(r, r, { threshold: 0.1, alpha: 0.01, normalize: false }).threshold).toBe(0.1);
  });

  it('Histogram refuses an unknown option', () => {
    expect(() => new Histogram({ significantDigit: 2 } as never)).toThrow(
      /significantDigit: unknown option \(did you mean "significantDigits"\?\)/,
    );
    expect(new Histogram({ significantDigits: 2 }).significantDigits).toBe(2);
  });
});
