import { describe, expect, it } from 'vitest';
import { benchWarnings } from '../../src/measure/warnings.js';
import { benchResult } from '../helpers/bench-result.js';

describe('benchWarnings', () => {
  it('says nothing about a steady run at concurrency 1', () => {
    expect(benchWarnings(benchResult())).toEqual([]);
  });

  it('warns of high variance between blocks, a slow first block, drifting baselines, failures and queueing', () => {
    const overall = [9, 2, 4, 2.2, 5, 1.8, 4.4, 2, 5, 2.1];
    const spawn = [1, 1, 1, 1, 1, 2, 2, 2, 2, 2];
    const r = benchResult(
      { overall, baselines: { spawnTrue: spawn } },
      { errors: { timeout: 2 }, concurrency: 4 },
    );
    const w = benchWarnings(r).join('\n');
    expect(w).toMatch(/high variance between blocks/);
    expect(w).toMatch(/the first block was .*× slower than the others.*raise --warmup/);
    expect(w).toMatch(
      /the machine was busy: baseline "raw spawn\('\/bin\/true'\)" moved during the run \(median 1 ms in the first half of the blocks, 2 ms in the second, 2×\)/,
    );
    expect(w).toMatch(/2 hook failures during the run \(timeout 2\)/);
    expect(w).toMatch(/concurrency 4: dispatch latencies include queueing/);
  });
});
