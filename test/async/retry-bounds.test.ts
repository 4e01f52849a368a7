// The wait before an async hook's retry is bounded: `retries` (≤ 100) doublings of `retryBackoffMs`
// (≤ a day) would hold a job and its tenant's maxAsyncQueued place for ever (Redis mode), and a wait
// past 2^31 ms makes Node's setTimeout fire after 1 ms instead (the in-process queue: a hot loop).
import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../../src/async/async-job.js';

const day = 86_400_000;

describe('retryDelayMs', () => {
  it('doubles, then stays at a day', () => {
    const spec = { retryBackoff: 'exponential' as const, retryBackoffMs: 1000 };
    expect([1, 2, 3, 4].map((n) => retryDelayMs(spec, n))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs(spec, 100)).toBe(day);
    expect(retryDelayMs({ retryBackoff: 'exponential', retryBackoffMs: day }, 6)).toBe(day);
    expect(retryDelayMs({ retryBackoff: 'exponential', retryBackoffMs: day }, 6)).toBeLessThan(2 ** 31 - 1);
  });

  it('fixed stays fixed', () => {
    expect(retryDelayMs({ retryBackoff: 'fixed', retryBackoffMs: 50 }, 99)).toBe(50);
  });
});
