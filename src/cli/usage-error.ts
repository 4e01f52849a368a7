// A user error on the command line: printed as one message on stderr, exit 1, no stack trace.
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
