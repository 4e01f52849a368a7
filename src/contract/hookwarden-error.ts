// The error the library throws (rejects with) when it is misused. A failing *hook* is never an
// exception: it is a record in the DispatchResult.

/** The codes of HookwardenError: one list (the HookwardenErrorCode type derives from it). */
const HOOKWARDEN_ERROR_CODES = [
  'invalid_options',
  'config_error',
  'unknown_event',
  'invalid_input',
  'closed',
  /** A pack could not be locked or signed (pack_tampered is the verification failure code). */
  'pack_error',
  /** The tenant is over `limits.tenantRatePerSec` (+ burst); `retryAfterMs` says when to try again. */
  'rate_limited',
  /** The service's auth file cannot be used (AuthFileError: `file`, and every problem in `problems`). */
  'auth_file_invalid',
] as const;

export type HookwardenErrorCode = (typeof HOOKWARDEN_ERROR_CODES)[number];

/** The brand every HookwardenError carries: a registered symbol, the same in every copy of the package. */
const BRAND = Symbol.for('hookwarden.error');

/**
 * The error hookwarden throws (rejects with) when it is misused: bad options, a config that cannot
 * be used, an unknown event, invalid input, a closed executor, a pack that cannot be locked, an auth
 * file the service cannot use. `code` says which; `problems` lists each problem of a config or input
 * on its own. Subclasses (the service's ServeOptionsError and AuthFileError) keep the brand and a
 * code of the same list.
 */
export class HookwardenError extends Error {
  override readonly name: string = 'HookwardenError';
  readonly [BRAND] = true;
  readonly code: HookwardenErrorCode;
  /** Individual problems, each naming a path and the value received (config errors). */
  readonly problems: readonly string[];
  /** `rate_limited`: milliseconds until the tenant's next dispatch may be admitted. */
  readonly retryAfterMs: number | undefined;

  constructor(
    code: HookwardenErrorCode,
    message: string,
    options: { problems?: readonly string[]; cause?: unknown; retryAfterMs?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.problems = options.problems ?? [];
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * Whether `err` is a HookwardenError, also one from another copy of the package (two installs in
 * one process make `instanceof` fail; the brand is a registered symbol).
 */
export function isHookwardenError(err: unknown): err is HookwardenError {
  return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[BRAND] === true;
}
