// Every answer that is not a result is `{"error": {"code", "message"}}`, with a stable snake_case
// code. Library errors (HookwardenError) and fastify's own (body too large, wrong media type…) map
// to a status and a code here; anything else is a 500 `internal_error` whose message names only the
// request id: never a stack trace, never a body.
import { HookwardenError } from '../contract/hookwarden-error.js';

/** Codes of the error envelope (one list; documented in docs/serve.md and the OpenAPI document). */
export const API_ERROR_CODES = [
  'unauthorized',
  'forbidden',
  'invalid_input',
  'unknown_event',
  'not_found',
  /** The path exists under another method (the answer says which, in `Allow`). */
  'method_not_allowed',
  'body_too_large',
  /** A path longer than any route's (414). */
  'uri_too_long',
  /** The request head is larger than --max-header-bytes (431). */
  'headers_too_large',
  'unsupported_media_type',
  'not_acceptable',
  'queue_full',
  'rate_limited',
  /** GET /v1/events: the tenant (or the server) has as many event streams open as it may. */
  'too_many_streams',
  'draining',
  'closed',
  'request_timeout',
  /** --socket: the client's configuration is not the server's (config-identity.ts). */
  'config_mismatch',
  /** --socket: a file the server loaded its configuration from changed since (config-identity.ts). */
  'config_changed',
  'internal_error',
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** An error answer of the HTTP API: its status, code and message (the message is the caller's to read). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly statusCode: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export interface ErrorBody {
  error: { code: ApiErrorCode; message: string };
}

const FASTIFY_ERRORS: Readonly<Record<string, [number, ApiErrorCode, string]>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'body_too_large', ''],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [
    415,
    'unsupported_media_type',
    'send the HookInput as JSON with "Content-Type: application/json"',
  ],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [
    400,
    'invalid_input',
    'the body is shorter or longer than Content-Length',
  ],
  FST_ERR_CTP_INVALID_TYPE: [400, 'invalid_input', 'invalid Content-Type header'],
  FST_ERR_CTP_EMPTY_TYPE: [400, 'invalid_input', 'empty Content-Type header'],
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
    const [status, apiCode, message] = known;
    const text =
      apiCode === 'body_too_large'
        ? `the body is larger than limits.maxInputBytes (${maxBodyBytes} bytes)`
        : message;
    return new ApiError(status, apiCode, text);
  }
  return new ApiError(
    500,
    'internal_error',
    `internal error (request ${requestId}); the server log has the details`,
  );
}

export const errorBody = (e: ApiError): ErrorBody => ({ error: { code: e.code, message: e.message } });
