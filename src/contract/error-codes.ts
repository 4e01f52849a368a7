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
  'isolation_unavailable',
  'queue_full',
  'aborted',
  'pool_closed',
  'worker_crashed',
  'max_hook_calls',
  'pack_tampered',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** A hook failure as data: it crosses the worker boundary by structured clone. */
export interface HookError {
  code: ErrorCode;
  message: string;
}

const LIMIT_CODES: ReadonlySet<ErrorCode> = new Set([
  'memory_limit',
  'stack_overflow',
  'output_limit',
  'input_too_large',
]);

/** The record outcome a failure code maps to (DESIGN failure table). */
export function outcomeForError(code: ErrorCode): 'error' | 'timeout' | 'limit' {
  if (code === 'timeout') return 'timeout';
  return LIMIT_CODES.has(code) ? 'limit' : 'error';
}
