// The conditions a run records, read from the OS while real work runs beside real load: CPU
// burners (child processes, 2 × CPUs + 1) keep every CPU busy while the main thread computes.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConditionsRecorder } from '../../src/measure/run-conditions.js';
import { burnCpus } from '../helpers/burn.js';

const LINUX_SCHEDSTAT = existsSync('/proc/thread-self/schedstat');

/** Keeps the main thread on a CPU for `ms` of wall time (it is busy, not asleep: it has to wait its turn). */
function spin(ms: number): void {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x += Math.sqrt(x + 1);
  if (x < 0) throw new Error('unreachable');
}

describe('ConditionsRecorder', () => {
  it.runIf(LINUX_SCHEDSTAT)(
    "on an overloaded machine, the main thread's CPU wait is a large share of the blocks",
    async () => {
      const burners = await burnCpus();
      try {
        const r = new ConditionsRecorder();
        const perBlock: (number | null)[] = [];
        for (let b = 0; b < 3; b++) {
          r.start();
          spin(150);
          perBlock.push(r.stop());
        }
        const c = r.summarize();
        // Sharing each CPU with two burners or more, a thread that always wants one waits over half
        // the time; 0.2 leaves room for a scheduler that favours it.
        expect(c.cpuWait!).toBeGreaterThan(0.2);
        for (const w of perBlock) expect(w!).toBeGreaterThan(0.1);
        expect(c.windowMs).toBeGreaterThanOrEqual(450);
        if (c.cpuPressure !== null) expect(c.cpuPressure).toBeGreaterThan(0.2);
        expect(c.loadPerCpu.start).toBeGreaterThanOrEqual(0);
      } finally {
        await burners.stop();
      }
    },
    60_000,
  );

  it('gives shares between 0 and 1, and covers only the blocks', () => {
    const started = performance.now();
    const r = new ConditionsRecorder();
    r.start();
    spin(20);
    const w = r.stop();
    // Time between blocks does not count.
    spin(50);
    const c = r.summarize();
    const elapsed = performance.now() - started;
    expect(c.windowMs).toBeGreaterThanOrEqual(20);
    expect(c.windowMs).toBeLessThanOrEqual(elapsed - 50);
    for (const v of [w, c.cpuWait, c.cpuPressure, c.steal])
      if (v !== null) expect(v).toBeGreaterThanOrEqual(0);
    for (const v of [w, c.cpuWait, c.cpuPressure, c.steal]) if (v !== null) expect(v).toBeLessThanOrEqual(1);
    expect(r.stop()).toBeNull();
  });
});
