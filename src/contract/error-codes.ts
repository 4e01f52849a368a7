// The closed union of hook failure codes. Failures are classified by code, never by message text.
// Dependency-free (used on both sides of the worker boundary).

export const ERROR_CODES = [
  'timeout',
  'memory_limit',
  'stack_overflow',
  'output_limit',
  'input_too_large',
  'syntax_error',
  'runtime_error',
  'invalid_output',
  'nonzero_exit',
  'spawn_failed',
  'spawn_server_lost',
  'isolation_unavailable',
  'queue_full',
  'queue_unavailable',
  'config_mismatch',
  'job_stalled',
  'aborted',
  'pool_closed',
  'worker_crashed',
  'max_hook_calls',
  'pack_tampered',
  'http_status',
  'http_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * What each code's `details` carry (zod's issues carry theirs the same way): the numbers a
 * message states, as data. Every field is optional: a failure reported by a lane may not know them.
 */
export interface ErrorDetails {
  timeout: { deadlineMs?: number; fuel?: number };
  memory_limit: { limitBytes?: number };
  stack_overflow: Record<string, never>;
  output_limit: { limitBytes?: number; actualBytes?: number; stream?: 'stdout' | 'stderr' };
  input_too_large: { limitBytes?: number; actualBytes?: number; limitDepth?: number; actualDepth?: number };
  syntax_error: Record<string, never>;
  runtime_error: Record<string, never>;
  invalid_output: Record<string, never>;
  nonzero_exit: { exitCode?: number; signal?: string };
  spawn_failed: { exitCode?: number };
  /** The spawn server that died under a running command hook: its pid and how it ended. */
  spawn_server_lost: { pid?: number; exitCode?: number; signal?: string };
  isolation_unavailable: Record<string, never>;
  queue_full: { tenant?: string; limit?: number };
  /** An async hook could not be queued: the queue's Redis did not answer. */
  queue_unavailable: Record<string, never>;
  /** An async job that no replica with its hook's spec (digest) ran within the bound. */
  config_mismatch: { digest?: string; waitedMs?: number };
  /** An async job whose replica stopped answering more often than allowed. */
  job_stalled: Record<string, never>;
  aborted: Record<string, never>;
  pool_closed: Record<string, never>;
  worker_crashed: Record<string, never>;
  max_hook_calls: { limit?: number };
  pack_tampered: { changed?: readonly string[] };
  /** An http hook's answer was not a 2xx (a 3xx is never followed: `location` says where it pointed). */
  http_status: { status?: number; location?: string };
  /** An http hook's request failed (connection refused, DNS, TLS, reset…): `cause` is the system's code. */
  http_error: { cause?: string };
}

/** A hook failure as data: it crosses the worker boundary by structured clone. */
export type HookError = {
  [C in ErrorCode]: { code: C; message: string; details?: ErrorDetails[C] };
}[ErrorCode];

/** A HookError from its parts (typed details per code). */
export function hookError<C extends ErrorCode>(
  code: C,
  message: string,
  details?: ErrorDetails[C],
): HookError {
  return (details === undefined ? { code, message } : { code, message, details }) as HookError;
}

const LIMIT_CODES: ReadonlySet<ErrorCode> = new Set([
  'memory_limit',
  'stack_overflow',
  'output_limit',
  'input_too_large',
]);

/**
 * Failures that mean the hook never received the input: refused before it was sent (too large, no
 * isolation, no queue slot, a tampered pack, maxHookCalls), or a hook that could not start or load.
 * A `once` hook that failed so has not run: its session's claim is given back.
 */
const NEVER_RAN: ReadonlySet<ErrorCode> = new Set([
  'input_too_large',
  'syntax_error',
  'spawn_failed',
  'isolation_unavailable',
  'queue_full',
  'queue_unavailable',
  'pool_closed',
  'max_hook_calls',
  'pack_tampered',
]);

/** Whether a failure with this code means the hook never saw the input. */
export const neverRan = (code: ErrorCode): boolean => NEVER_RAN.has(code);

/** The record outcome a failure code maps to (the failure table, docs/semantics.md#failures). */
export function outcomeForError(code: ErrorCode): 'error' | 'timeout' | 'limit' {
  if (code === 'timeout') return 'timeout';
  return LIMIT_CODES.has(code) ? 'limit' : 'error';
}
