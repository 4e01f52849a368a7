// The conditions a run was measured under, read from the OS block by block while it ran: how long
// the bench's main thread waited for a CPU while it was ready to run (Linux schedstat), how much of
// the time some task on the machine waited for one (Linux PSI), the CPU time the hypervisor gave to
// other guests (steal), and the load average. `bench compare` reads them to tell a change from the
// noise of a busy machine. Reading them costs a few small /proc reads per block, outside the timed
// parts; nothing here may fail a run (a file that cannot be read makes its figure null).
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

/** What the machine was doing while a run's blocks were measured. */
export interface RunConditions {
  /** Wall time of the measured blocks these figures cover (their baseline blocks included), ms. */
  windowMs: number;
  /**
   * Share of the window the bench's main thread, which starts and times every dispatch and every
   * baseline call, spent ready to run but waiting for a CPU (Linux schedstat): time a busy machine
   * added to what was measured. About 0 on a quiet machine. Null where the OS does not say.
   */
  cpuWait: number | null;
  /** Share of the window during which some task on the machine waited for a CPU (Linux PSI `some`). */
  cpuPressure: number | null;
  /** Share of the machine's CPU time the hypervisor gave to other guests (`/proc/stat` steal). */
  steal: number | null;
  /** The 1-minute load average per logical CPU when the first block started and when the last ended. */
  loadPerCpu: { start: number; end: number };
}

interface Sample {
  at: number;
  /** Nanoseconds the main thread has waited on a run queue since it started. */
  waitNs: number | null;
  pressureUs: number | null;
  stat: { steal: number; total: number } | null;
}

const read = (path: string): string | null => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

function mainThreadWait(): number | null {
  // "run_time wait_time timeslices", nanoseconds; sampled on the main thread, so thread-self is it.
  const wait = Number(read('/proc/thread-self/schedstat')?.split(' ')[1]);
  return Number.isFinite(wait) ? wait : null;
}

function pressure(): number | null {
  const m = /^some .*total=(\d+)/m.exec(read('/proc/pressure/cpu') ?? '');
  return m === null ? null : Number(m[1]);
}

function cpuStat(): Sample['stat'] {
  const line = /^cpu (.*)$/m.exec(read('/proc/stat') ?? '')?.[1];
  if (line === undefined) return null;
  const fields = line.trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal guest guest_nice: guest time is in user already.
  const total = fields.slice(0, 8).reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  return { steal: fields[7] ?? 0, total };
}

const sample = (): Sample => ({
  at: performance.now(),
  waitNs: mainThreadWait(),
  pressureUs: pressure(),
  stat: cpuStat(),
});

const loadPerCpu = () => Math.round((loadavg()[0]! / Math.max(1, cpus().length)) * 100) / 100;
const share = (v: number) => Math.round(v * 10_000) / 10_000;

/** Sums the conditions over the measured blocks: `start()` before a block, `stop()` after it. */
export class ConditionsRecorder {
  #open: Sample | undefined;
  #windowMs = 0;
  #waitNs: number | null = 0;
  #pressureUs: number | null = 0;
  #steal: number | null = 0;
  #total = 0;
  #loadStart: number | undefined;
  #loadEnd = 0;

  start(): void {
    this.#loadStart ??= loadPerCpu();
    this.#open = sample();
  }

  /** Ends a block; returns the share of it the main thread waited for a CPU (null: unknown). */
  stop(): number | null {
    const from = this.#open;
    if (from === undefined) return null;
    this.#open = undefined;
    const to = sample();
    this.#loadEnd = loadPerCpu();
    const ms = to.at - from.at;
    this.#windowMs += ms;
    const wait = from.waitNs === null || to.waitNs === null ? null : Math.max(0, to.waitNs - from.waitNs);
    this.#waitNs = this.#waitNs === null || wait === null ? null : this.#waitNs + wait;
    this.#pressureUs =
      this.#pressureUs === null || from.pressureUs === null || to.pressureUs === null
        ? null
        : this.#pressureUs + Math.max(0, to.pressureUs - from.pressureUs);
    if (this.#steal === null || from.stat === null || to.stat === null) this.#steal = null;
    else {
      this.#steal += Math.max(0, to.stat.steal - from.stat.steal);
      this.#total += Math.max(0, to.stat.total - from.stat.total);
    }
    return wait === null || ms <= 0 ? null : share(Math.min(1, wait / 1e6 / ms));
  }

  summarize(): RunConditions {
    const ms = this.#windowMs;
    return {
      windowMs: Math.round(ms * 1000) / 1000,
      cpuWait: this.#waitNs === null || ms <= 0 ? null : share(Math.min(1, this.#waitNs / 1e6 / ms)),
      cpuPressure:
        this.#pressureUs === null || ms <= 0 ? null : share(Math.min(1, this.#pressureUs / 1000 / ms)),
      steal: this.#steal === null ? null : this.#total <= 0 ? 0 : share(this.#steal / this.#total),
      loadPerCpu: { start: this.#loadStart ?? loadPerCpu(), end: this.#loadEnd },
    };
  }
}

const pct = (v: number) => `${Math.round(v * 100)}%`;

/** The conditions in one line, for the text and the report: what was known of each figure. */
export function describeConditions(c: RunConditions): string {
  const parts = [
    c.cpuWait === null
      ? 'CPU wait not known on this OS'
      : `the main thread waited for a CPU ${pct(c.cpuWait)} of the measured time`,
    ...(c.cpuPressure === null ? [] : [`some task waited ${pct(c.cpuPressure)} of it (PSI)`]),
    ...(c.steal === null ? [] : [`steal ${pct(c.steal)}`]),
    `load ${c.loadPerCpu.start.toFixed(2)} → ${c.loadPerCpu.end.toFixed(2)} per CPU`,
  ];
  return parts.join(', ');
}
