// Every answer that is not a result is `{"error": {"code", "message"}}`, with a stable snake_case
// code. Library errors (HookwardenError) and fastify's own (body too large, wrong media type…) map
// to a status and a code here; anything else is a 500 `internal_error` whose message names only the
// request id: never a stack trace, never a body.
import { HookwardenError } from '../contract/hookwarden-error.js';

/**
 * Every code of the error envelope and the HTTP status it is answered with: the one list (the zod
 * schema and the OpenAPI document derive from it; docs/serve.md lists each, tested).
 */
export const API_ERRORS = {
  unauthorized: 401,
  forbidden: 403,
  invalid_input: 400,
  unknown_event: 404,
  not_found: 404,
  /** The path exists under another method (the answer says which, in `Allow`). */
  method_not_allowed: 405,
  body_too_large: 413,
  /** A path longer than any route's. */
  uri_too_long: 414,
  /** The request head is larger than --max-header-bytes. */
  headers_too_large: 431,
  unsupported_media_type: 415,
  /** A hook of the dispatch was refused `queue_full`; the partial result is in the answer. */
  queue_full: 429,
  rate_limited: 429,
  /** GET /v1/events: the tenant (or the server) has as many event streams open as it may. */
  too_many_streams: 429,
  draining: 503,
  closed: 503,
  request_timeout: 408,
  /** --socket: the client's configuration is not the server's (config-identity.ts). */
  config_mismatch: 409,
  /** --socket: a file the server loaded its configuration from changed since (config-identity.ts). */
  config_changed: 409,
  internal_error: 500,
} as const;

export type ApiErrorCode = keyof typeof API_ERRORS;

/** The codes of API_ERRORS, in its order. */
export const API_ERROR_CODES = Object.keys(API_ERRORS) as [ApiErrorCode, ...ApiErrorCode[]];

/**
 * An error answer of the HTTP API: its status, code and message (the message is the caller's to
 * read). The status is the code's in API_ERRORS (checked by the compiler).
 */
export class ApiError<C extends ApiErrorCode = ApiErrorCode> extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly statusCode: (typeof API_ERRORS)[C],
    readonly code: C,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** An ApiError with its code's status. */
export const apiError = (code: ApiErrorCode, message: string, headers?: Readonly<Record<string, string>>) =>
  new ApiError(API_ERRORS[code], code, message, headers);

export interface ErrorBody {
  error: { code: ApiErrorCode; message: string };
}

const FASTIFY_ERRORS: Readonly<Record<string, [ApiErrorCode, string]>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['body_too_large', ''],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    'unsupported_media_type',
    'send the HookInput as JSON with "Content-Type: application/json"',
  ],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['invalid_input', 'the body is shorter or longer than Content-Length'],
  FST_ERR_CTP_INVALID_TYPE: ['invalid_input', 'invalid Content-Type header'],
  FST_ERR_CTP_EMPTY_TYPE: ['invalid_input', 'empty Content-Type header'],
};

/** The status, code and message of any error a request ended with. */
export function toApiError(err: unknown, requestId: string, maxBodyBytes: number): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof HookwardenError) {
    switch (err.code) {
      case 'invalid_input':
        return new ApiError(400, 'invalid_input', err.message);
      case 'unknown_event':
        return new ApiError(404, 'unknown_event', err.message);
      case 'rate_limited': {
        const seconds = Math.max(1, Math.ceil((err.retryAfterMs ?? 1000) / 1000));
        return new ApiError(429, 'rate_limited', err.message, { 'retry-after': String(seconds) });
      }
      case 'closed':
        return new ApiError(503, 'closed', 'the server is shutting down', { connection: 'close' });
      default:
        break;
    }
  }
  const code = (err as { code?: unknown } | null)?.code;
  // The client closed the connection while sending its body: nobody will read the answer.
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE')
    return new ApiError(
      400,
      'invalid_input',
      'the client closed the connection before the whole body arrived',
    );
  const known = typeof code === 'string' ? FASTIFY_ERRORS[code] : undefined;
  if (known !== undefined) {
    const [apiCode, message] = known;
    const text =
      apiCode === 'body_too_large'
        ? `the body is larger than limits.maxInputBytes (${maxBodyBytes} bytes)`
        : message;
    return apiError(apiCode, text);
  }
  return new ApiError(
    500,
    'internal_error',
    `internal error (request ${requestId}); the server log has the details`,
  );
}

export const errorBody = (e: ApiError): ErrorBody => ({ error: { code: e.code, message: e.message } });
