// What every lane shares: one way to ask (`run(task, { signal, tenant, onStart })`) and one answer:
// the run's value, or a refusal — a hook the lane never started (the dispatch was aborted or the
// executor closed before its turn, its tenant's queue was full) or one whose run failed underneath
// it (`started`: a worker crashed, the backstop terminated it).
import type { ErrorCode, HookError } from '../contract/error-codes.js';

export interface LaneRunOptions {
  /** Aborts a queued run at once, a running one as the lane can (kill, terminate). */
  readonly signal?: AbortSignal | undefined;
  /** Tenant whose turn the run takes ('' = dispatches without a tenant). */
  readonly tenant?: string | undefined;
  /** Called when the run actually starts (after its turn came). */
  readonly onStart?: (() => void) | undefined;
}

/** A lane's answer. */
export type LaneResult<T> =
  | { readonly ran: true; readonly value: T; readonly queuedMs: number }
  | LaneRefusal;

/** Why a lane has no value: the error, and whether the run had started. */
export interface LaneRefusal {
  readonly ran: false;
  readonly error: HookError;
  readonly queuedMs: number;
  /** True when the run had started and failed underneath (not a hook's own answer). */
  readonly started?: true;
}

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  aborted: 'the dispatch was aborted before the hook started',
  pool_closed: 'the executor is closed',
};

/**
 * A refusal: an error, or a code whose message defaults to the usual one for `aborted` and
 * `pool_closed`. `started`: the run had started and failed underneath.
 */
export function refusal(error: HookError | ErrorCode, queuedMs: number, started = false): LaneRefusal {
  const e = typeof error === 'string' ? { code: error, message: MESSAGES[error] ?? error } : error;
  return started
    ? { ran: false, error: e as HookError, queuedMs, started: true }
    : { ran: false, error: e as HookError, queuedMs };
}

/** A lane's load at one moment (metrics): its slots, the slots in use, each tenant's work ('' = no tenant). */
export interface LaneLoad {
  readonly capacity: number;
  readonly busy: number;
  readonly tenants: readonly { tenant: string; queued: number; running: number }[];
}

/**
 * What every lane is (command, js, wasm, http, trusted): `run` a task of its kind to a LaneResult
 * of its value, never throwing for a hook's failure, and `close` (queued runs refused with
 * `pool_closed`, running ones stopped, resolved when they are).
 */
export interface Lane<Task, Value> {
  run(task: Task, options?: LaneRunOptions): Promise<LaneResult<Value>>;
  close(): Promise<void>;
}

/** A lane with slots and per-tenant queues (command, js, wasm): its load for metrics. */
export interface QueuedLane<Task, Value> extends Lane<Task, Value> {
  load(): LaneLoad;
}
