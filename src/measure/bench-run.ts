// One series of dispatches through one executor: the work (one event, or a recording replayed in
// order), `concurrency` lanes, each with its own place in the work, and the recorder the measured
// dispatches go to. `bench --isolation` runs several of them, interleaved, one per level.
import { HookwardenError } from '../contract/hookwarden-error.js';
import type { HookTiming } from '../dispatch/hook-timing.js';
import type { ResolvedBenchOptions } from './bench-options.js';
import type { BenchRecorder } from './bench-recorder.js';
import type { DispatchTarget } from './remote-target.js';

/** What one dispatch sends: an event as named, its input, and where it was recorded. */
export interface WorkItem {
  readonly event: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** `file:line` of a replayed event, for messages. */
  readonly at?: string;
}

/** A rejected dispatch of a replayed line names the line. */
function located(error: unknown, item: WorkItem): unknown {
  if (item.at === undefined || !(error instanceof HookwardenError)) return error;
  return new HookwardenError(error.code, `${item.at}: ${error.message}`, {
    problems: error.problems,
    cause: error,
  });
}

export class BenchRun {
  readonly label: string;
  readonly recorder: BenchRecorder;
  readonly #o: ResolvedBenchOptions;
  readonly #target: Pick<DispatchTarget, 'dispatch'>;
  readonly #work: readonly WorkItem[];
  readonly #signal: AbortSignal;
  readonly #onMeasured: () => void;
  /** Each lane's next place in the work: lanes start spread over it, then go on in order. */
  readonly #cursor: number[];
  #seq = 0;
  /** Dispatches started, warm-up included: the offset of `--vary-input`'s timestamps. */
  #sent = 0;
  readonly #baseTime: number;
  /** Wall time of the measured dispatch blocks. */
  durationMs = 0;

  constructor(args: {
    label: string;
    options: ResolvedBenchOptions;
    target: Pick<DispatchTarget, 'dispatch'>;
    work: readonly WorkItem[];
    recorder: BenchRecorder;
    signal: AbortSignal;
    onMeasured: () => void;
  }) {
    this.label = args.label;
    this.#o = args.options;
    this.#target = args.target;
    this.#work = args.work;
    this.recorder = args.recorder;
    this.#signal = args.signal;
    this.#onMeasured = args.onMeasured;
    const lanes = this.#o.concurrency;
    this.#cursor = Array.from({ length: lanes }, (_, i) => Math.floor((i * this.#work.length) / lanes));
    this.#baseTime = Date.now();
  }

  /** The input of the next dispatch: the item's own, or one with its own timestamp (`--vary-input`). */
  #inputOf(item: WorkItem): Readonly<Record<string, unknown>> {
    const n = this.#sent++;
    if (!this.#o.varyInput) return item.input;
    const given = typeof item.input.timestamp === 'string' ? Date.parse(item.input.timestamp) : Number.NaN;
    const base = Number.isFinite(given) ? given : this.#baseTime;
    return { ...item.input, timestamp: new Date(base + n).toISOString() };
  }

  #tenant(seq: number): string | undefined {
    return this.#o.tenants === 1 ? undefined : `t${(seq % this.#o.tenants) + 1}`;
  }

  /** Measured dispatches start again at t1, whatever the warm-up used. */
  startMeasuring(): void {
    this.#seq = 0;
  }

  #checkAborted(): void {
    if (this.#signal.aborted) throw this.#signal.reason ?? new Error('bench aborted');
  }

  async #one(item: WorkItem, tenant: string | undefined, timings: HookTiming[] | undefined) {
    const input = this.#inputOf(item);
    const onHookTiming = timings === undefined ? undefined : (t: HookTiming) => void timings.push(t);
    const started = performance.now();
    try {
      const result = await this.#target.dispatch(item.event, input, {
        tenant,
        signal: this.#signal,
        onHookTiming,
      });
      return { result, elapsed: performance.now() - started };
    } catch (error) {
      throw located(error, item);
    }
  }

  /**
   * The work once, in order, one dispatch at a time, unmeasured: each event name's first call is its
   * cold figure. A bad event or input fails here, before any measured work.
   */
  async coldPass(): Promise<void> {
    for (const item of this.#work) {
      const timings: HookTiming[] = [];
      const { result, elapsed } = await this.#one(item, this.#tenant(this.#seq++), timings);
      this.#checkAborted();
      this.recorder.events.cold(item.event, result.event, elapsed, timings);
    }
  }

  /** Runs `n` dispatches, `concurrency` lanes at a time; adds the block's wall time when measured. */
  async dispatchBlock(n: number, measured: boolean): Promise<number> {
    let next = 0;
    let failure: { error: unknown } | undefined;
    const lane = async (l: number) => {
      while (next < n && failure === undefined && !this.#signal.aborted) {
        next++;
        const item = this.#work[this.#cursor[l]! % this.#work.length]!;
        this.#cursor[l] = (this.#cursor[l]! + 1) % this.#work.length;
        const tenant = this.#tenant(this.#seq++);
        const timings: HookTiming[] | undefined = measured ? [] : undefined;
        try {
          const { result, elapsed } = await this.#one(item, tenant, timings);
          if (!measured || this.#signal.aborted) continue;
          this.recorder.recordDispatch(result, elapsed, tenant, timings, item.event);
          this.#onMeasured();
        } catch (error) {
          // A dispatch that rejects (unknown event, invalid input) stops the run.
          failure ??= { error };
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: Math.min(n, this.#o.concurrency) }, (_, l) => lane(l)));
    const elapsed = performance.now() - started;
    if (failure !== undefined) throw failure.error;
    this.#checkAborted();
    if (measured) this.durationMs += elapsed;
    return elapsed;
  }
}
