// What createExecutor() returns: the library's face (dispatch, register, tenants, events, reload,
// close), and what internalsOf() gives the server, the fixture runner and the daemon.
import type { AsyncQueue } from '../async/async-queue.js';
import type { DecisionLogStats } from '../audit/decision-log.js';
import type { HookEventMap, HookEventName } from '../audit/hook-events.js';
import type { Diagnostic } from '../config/diagnostics.js';
import type { LoadedConfig } from '../config/load.js';
import type { LoadRead } from '../config/read-log.js';
import type { DispatchResult } from '../contract/result.js';
import type { DispatchInput } from '../contract/types.js';
import type { DispatchOptions } from '../dispatch/dispatcher.js';
import type { Generation } from '../dispatch/generation.js';
import type { HookPool } from '../pool/pool.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import type { ReloadResult } from './reload.js';
import type { TenantSpec } from './tenants.js';
import type { TrustedHookSpec } from './trusted-hook.js';

export interface Executor {
  /**
   * Runs every hook registered for `event` and folds their answers into one verdict. `input` may
   * leave out `sessionId` (default `"default"`), `cwd` (default: the sandbox root) and `timestamp`
   * (default: now); see {@link DispatchInput}. Rejects with a HookwardenError only for an unknown
   * event (`unknown_event`), an invalid input (`invalid_input`, naming each field and value) or a
   * closed executor (`closed`).
   */
  dispatch(event: string, input?: DispatchInput, options?: DispatchOptions): Promise<DispatchResult>;
  /** Registers a trusted in-process callback; returns a function that unregisters it. */
  register(spec: TrustedHookSpec): () => void;
  /**
   * Adds or replaces a tenant at run time: its hooks (config files or objects, user scope) and its
   * scheduling limits. Its dispatches (`{ tenant: id }`) run the trusted and policy hooks and these.
   */
  setTenant(id: string, spec?: TenantSpec): Promise<void>;
  /** Removes a tenant set with setTenant(); its later dispatches run trusted and policy hooks only. */
  removeTenant(id: string): boolean;
  /**
   * Loads the configuration again (config files, packs verified against their pins) and, if it brings
   * no new error, swaps it in atomically; otherwise the current generation stays (last-known-good).
   * Dispatches already running finish on the generation they started with. Rejects only when closed.
   */
  reload(): Promise<ReloadResult>;
  /** Problems of the configuration in force (warnings and skipped entries). */
  readonly diagnostics: readonly Diagnostic[];
  /** Ids of the tenants with hooks of their own (config `tenants` and setTenant()), sorted. */
  readonly tenants: readonly string[];
  /**
   * Subscribes to `hook.started` (a hook is handed to its lane), `hook.completed` (its audit record:
   * metadata only), `async.completed` (an async hook's run ended), `rewake` (an `asyncRewake` hook
   * said no) or `audit.failed` (audit records could not be written after retries; they are kept for
   * the next append) or `decision-log` (the decision-log sink failed, dropped events, or answers again).
   * Returns a function that unsubscribes.
   */
  on<K extends HookEventName>(name: K, listener: (e: HookEventMap[K]) => void): () => void;
  /**
   * Stops every hook, waits for cleanup; leaves no process, thread or temp dir behind. Idempotent.
   * Async hooks not finished are aborted, each with its `not-run` (or failed) completion: pass
   * `drainMs` to let them finish first, for at most that long (docs/scaling.md "Closing").
   */
  close(options?: CloseOptions): Promise<void>;
}

export interface CloseOptions {
  /** Wait this long (ms) for queued and running async hooks to finish before aborting the rest. */
  drainMs?: number;
  /** Stops waiting for the drain when aborted (an interrupt): the rest are aborted at once. */
  signal?: AbortSignal;
}

/** What internalsOf() (internals.ts) gives: the pool (lane load, warm-up) and the generation in force (catalogue, limits). */
export interface ExecutorInternals {
  readonly pool: HookPool;
  readonly generation: () => Generation;
  /** The async queue: its event feed (GET /v1/events) and status (/readyz, metrics). */
  readonly queue: AsyncQueue;
  /** The configuration in force, as loaded (the fixture runner's coverage and checks). */
  readonly loaded: () => LoadedConfig;
  /** What the configuration in force was loaded from, with digests (config/read-log.ts). */
  readonly reads: () => readonly LoadRead[];
  /** The configured hooks in force (trusted callbacks and tenants' own hooks not included). */
  readonly hooks: () => readonly HookDefinition[];
  /** The decision-log sink's counts (undefined without `audit.decisionLog`). */
  readonly decisionLog: () => DecisionLogStats | undefined;
}
