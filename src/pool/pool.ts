// The pool layer: every hook execution goes through one of its lanes — command processes
// (command-lane.ts), QuickJS workers (js-lane.ts), wasm workers (wasm-lane.ts), http requests (http-lane.ts), trusted callbacks
// and the platform's evaluators (trusted-lane.ts) — each with one signature, `run(task, { signal,
// tenant, onStart })`, and one answer (lane.ts). The pool owns the closing signal: close() refuses
// what waits, stops what runs, and leaves no process, thread, scratch directory or connection behind.
import { setMaxListeners } from 'node:events';
import { CommandLane } from './command-lane.js';
import { HttpLane } from './http-lane.js';
import { JsLane } from './js-lane.js';
import { poolClosed, poolOpened } from './pool-channels.js';
import type { TenantLimits } from './tenant-queues.js';
import { TrustedLane } from './trusted-lane.js';
import type { LaneScheduling } from './turns.js';
import { WasmLane } from './wasm-lane.js';

export type { CommandRequest } from './command-lane.js';
export type { HttpOutcome } from './http-lane.js';
export type { LaneRefusal, LaneResult, LaneRunOptions } from './lane.js';

export interface PoolOptions {
  readonly maxConcurrentCommands: number;
  readonly killGraceMs: number;
  /** QuickJS worker threads (and wasm worker threads: the wasm lane has as many). */
  readonly jsThreads: number;
  /** Hard cap of each QuickJS worker's heap. */
  readonly jsHeapCeilingBytes: number;
  /** Time beyond a JS task's deadlines before its worker thread is terminated. */
  readonly jsBackstopGraceMs: number;
  /** Per-tenant scheduling limits ('' is the default tenant). */
  readonly tenantLimits?: ((tenant: string) => TenantLimits) | undefined;
  /** Fair share and default per-tenant queue bound of the command and QuickJS lanes. */
  readonly scheduling?: LaneScheduling | undefined;
  /** Directory under which per-invocation scratch dirs are made (default: a tmpfs if available). */
  readonly scratchBase?: string | undefined;
}

export class HookPool {
  readonly #closing = new AbortController();
  readonly command: CommandLane;
  readonly js: JsLane;
  readonly wasm: WasmLane;
  readonly trusted: TrustedLane;
  readonly http: HttpLane;

  constructor(options: PoolOptions) {
    const closing = this.#closing.signal;
    // Every hook in flight links to the closing signal (and unlinks when done): as many listeners
    // as hooks running, which is no leak, so no MaxListenersExceededWarning past 10.
    setMaxListeners(0, closing);
    this.command = new CommandLane(
      {
        maxConcurrent: options.maxConcurrentCommands,
        killGraceMs: options.killGraceMs,
        tenantLimits: options.tenantLimits,
        scheduling: options.scheduling,
        scratchBase: options.scratchBase,
      },
      closing,
    );
    this.js = new JsLane(
      {
        threads: options.jsThreads,
        heapCeilingBytes: options.jsHeapCeilingBytes,
        backstopGraceMs: options.jsBackstopGraceMs,
        tenantLimits: options.tenantLimits,
        scheduling: options.scheduling,
      },
      closing,
    );
    this.wasm = new WasmLane(
      { threads: options.jsThreads, tenantLimits: options.tenantLimits, scheduling: options.scheduling },
      closing,
    );
    this.trusted = new TrustedLane(closing);
    this.http = new HttpLane(closing);
    poolOpened.publish(this);
  }

  /** Starts the worker threads of the lanes `hooks` use (JS, wasm), so their first hook does not wait. */
  warmFor(hooks: readonly { readonly type: string }[]): void {
    if (hooks.some((h) => h.type === 'js')) this.js.warm();
    if (hooks.some((h) => h.type === 'wasm')) this.wasm.warm();
  }

  get closed(): boolean {
    return this.#closing.signal.aborted;
  }

  /** Stops everything: queued runs are refused (`pool_closed`), running ones killed; waits for cleanup. */
  async close(): Promise<void> {
    if (!this.closed) this.#closing.abort(new Error('pool closed'));
    await this.command.close();
    await this.js.close();
    await this.wasm.close();
    await this.http.close();
    await this.trusted.close();
    poolClosed.publish(this);
  }
}
