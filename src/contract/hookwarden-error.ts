// The error the library throws (rejects with) when it is misused. A failing *hook* is never an
// exception: it is a record in the DispatchResult.

export type HookwardenErrorCode =
  | 'invalid_options'
  | 'config_error'
  | 'unknown_event'
  | 'invalid_input'
  | 'closed'
  /** A pack could not be locked or signed (pack_tampered is the verification failure code). */
  | 'pack_error';

export class HookwardenError extends Error {
  override readonly name = 'HookwardenError';
  readonly code: HookwardenErrorCode;
  /** Individual problems, each naming a path and the value received (config errors). */
  readonly problems: readonly string[];

  constructor(
    code: HookwardenErrorCode,
    message: string,
    options: { problems?: readonly string[]; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.problems = options.problems ?? [];
  }
}
