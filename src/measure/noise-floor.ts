// How much of a difference between two runs their noise alone could make. Two sources, read from
// the results themselves:
// - the machine: the share of the run the bench's main thread spent ready to run but waiting for a
//   CPU, and the share of CPU time the hypervisor stole. Time spent waiting is in the figures: a run
//   that waited a share c of its time was stretched by 1 / (1 − c), and dividing by the baselines
//   corrects part of that, never reliably. Results without those figures fall back on the load
//   average per CPU (an estimate: 1 − 1/load, the share a task waits when each CPU has `load` to run).
// - the run's own drift: the change of a series' normalised block medians from the first half of
//   the blocks to the second. Noise that moves slowly (a neighbour starting a build) moves whole
//   runs as it moves halves of one, and a test that treats blocks as independent cannot see it.
// Floors are kept as natural logarithms, so that they add and are the same both ways (×1.5 and ÷1.5).
import type { BenchResult } from './bench-result.js';
import { median } from './quantile.js';

/** The most of a run counted as lost to others (beyond it the floor would be infinite). */
const MAX_CONTENTION = 0.95;

/** What a run's conditions say about its noise. */
export interface RunNoise {
  /**
   * The share of the run lost to a busy machine: 1 − (1 − cpuWait)(1 − steal), or the load
   * average's estimate for results that did not measure it.
   */
  contention: number;
  /** How `contention` was read: measured by the run, or estimated from its load average. */
  source: 'measured' | 'load average';
  cpuWait: number | null;
  steal: number | null;
  /** The highest 1-minute load average per CPU the run recorded. */
  loadPerCpu: number;
}

const r4 = (v: number) => Math.round(v * 10_000) / 10_000;

export function runNoise(r: BenchResult): RunNoise {
  const c = r.conditions;
  const cpus = Math.max(1, r.machine.cpus);
  const loadPerCpu =
    c === undefined ? (r.machine.loadAverage[0] ?? 0) / cpus : Math.max(c.loadPerCpu.start, c.loadPerCpu.end);
  const steal = c?.steal ?? null;
  const cpuWait = c?.cpuWait ?? null;
  if (cpuWait !== null) {
    const contention = 1 - (1 - cpuWait) * (1 - (steal ?? 0));
    return { contention: r4(contention), source: 'measured', cpuWait, steal, loadPerCpu: r4(loadPerCpu) };
  }
  // With L runnable tasks per CPU, each gets about 1/L of one when L > 1.
  const estimate = loadPerCpu > 1 ? 1 - 1 / loadPerCpu : 0;
  const contention = 1 - (1 - estimate) * (1 - (steal ?? 0));
  return { contention: r4(contention), source: 'load average', cpuWait, steal, loadPerCpu: r4(loadPerCpu) };
}

/** The log-floor of a busy machine: how far CPU-bound work of the busier run may have stretched. */
export const loadFloor = (runs: readonly RunNoise[]): number =>
  -Math.log(1 - Math.min(MAX_CONTENTION, Math.max(0, ...runs.map((r) => r.contention))));

/**
 * A series' own drift: |ln(median of the second half ÷ median of the first half)| of its values in
 * run order (the middle one left out of an odd count). 0 with fewer than 4 values: too few to say.
 */
export function drift(values: readonly number[]): number {
  const positive = values.filter((v) => v > 0);
  if (positive.length < 4) return 0;
  const half = Math.floor(positive.length / 2);
  const first = median(positive.slice(0, half));
  const second = median(positive.slice(positive.length - half));
  return Math.abs(Math.log(second / first));
}

/** The same for values already on a log scale (paired log ratios): the halves' medians' difference. */
export function logDrift(values: readonly number[]): number {
  if (values.length < 4) return 0;
  const half = Math.floor(values.length / 2);
  return Math.abs(median(values.slice(values.length - half)) - median(values.slice(0, half)));
}

/** A log floor as a relative change, `+x`: ln(1.5) → 0.5. */
export const asChange = (logFloor: number) => r4(Math.exp(logFloor) - 1);

/** A floor (as a change) in words: `±12%` up to ±100%, then a factor either way, `×3.4`. */
export const floorText = (floor: number) =>
  floor < 1 ? `±${Math.round(floor * 100)}%` : `×${+(1 + floor).toPrecision(2)}`;

/** `31%` */
const pct = (v: number) => `${Math.round(v * 100)}%`;

/** Why the machine makes two runs hard to compare, in one clause (the busier run's figures). */
export function loadReason(base: RunNoise, next: RunNoise): string {
  const [label, r, other] = next.contention >= base.contention ? ['new', next, base] : ['base', base, next];
  const what =
    r.source === 'measured'
      ? `the ${label} run's main thread spent ${pct(r.cpuWait ?? 0)} of the run waiting for a CPU${r.steal !== null && r.steal >= 0.005 ? `, and the hypervisor took ${pct(r.steal)} of the CPU time (steal)` : ''}`
      : `the ${label} run ended with a load average of ${r.loadPerCpu.toFixed(2)} per CPU (its CPU wait was not measured: an older result, or not Linux)`;
  return `${what} (the other run: ${pct(other.contention)})`;
}
