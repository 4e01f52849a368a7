// The answers fastify and Node's HTTP parser would otherwise write themselves, in the service's
// `{"error": {code, message}}` envelope, logged and counted like every other request:
// - fastify's framework errors, before any route runs: a malformed URL (`%ZZ`, 400) and a path
//   parameter over the router's length (414);
// - Node's client errors, before there is a request at all: a request head over --max-header-bytes
//   (431), a head or body too slow (408), a request line or header the parser refuses (400);
// - a path that exists under another method (405, with `Allow`), decided in the not-found handler.
// Nothing of the request is echoed but a capped, single-line part of its path.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ServerContext } from './context.js';
import { ApiError, type ApiErrorCode, apiError, errorBody } from './errors.js';
import { logRequest } from './logging.js';

/** Most characters of a request's path an error message repeats. */
export const ECHO_MAX = 64;

/** The path of `url` as an error message may repeat it: no query, one line, at most ECHO_MAX. */
export function echoPath(url: string): string {
  const path = (url.split('?')[0] ?? '').replace(/[\u0000-\u001f\u007f]/g, '?');
  return path.length <= ECHO_MAX ? path : `${path.slice(0, ECHO_MAX)}… (${path.length} characters)`;
}

/** The request's log line and metric for an answer written outside the request lifecycle. */
function logBare(ctx: ServerContext, method: string, status: number, code: ApiErrorCode, reqId: string) {
  ctx.metrics.countRequest('unmatched', method, status);
  logRequest(ctx.logger, { reqId, method, route: 'unmatched', status, durationMs: 0, errorCode: code });
}

const FRAMEWORK: Readonly<Record<string, (path: string) => ApiError>> = {
  FST_ERR_BAD_URL: (path) =>
    new ApiError(400, 'invalid_input', `the URL ${path} is not valid (a malformed %-escape?)`),
  FST_ERR_MAX_PARAM_LENGTH: (path) =>
    new ApiError(414, 'uri_too_long', `the path ${path} is too long: no route has a part that long`),
};

/** fastify's `frameworkErrors` option. */
export function frameworkErrorHandler(ctx: ServerContext) {
  return (err: Error & { code?: string }, request: FastifyRequest, reply: FastifyReply): void => {
    const path = echoPath(request.raw.url ?? '');
    const e =
      FRAMEWORK[err.code ?? '']?.(path) ??
      new ApiError(
        500,
        'internal_error',
        `internal error (request ${request.id}); the server log has the details`,
      );
    if (e.statusCode >= 500)
      ctx.logger.error({ reqId: request.id, errorName: err.name, code: err.code }, 'request failed');
    logBare(ctx, request.raw.method ?? 'unknown', e.statusCode, e.code, request.id);
    reply.code(e.statusCode).header('content-type', 'application/json; charset=utf-8').send(errorBody(e));
  };
}

const CLIENT_ERRORS: Readonly<Record<string, [ApiErrorCode, string]>> = {
  HPE_HEADER_OVERFLOW: ['headers_too_large', 'the request head is larger than the server accepts'],
  ERR_HTTP_REQUEST_TIMEOUT: ['request_timeout', 'the request did not arrive in time'],
  ERR_HTTP_HEADERS_TIMEOUT: ['request_timeout', 'the request headers did not arrive in time'],
};

let bareRequests = 0;

/** Writes an envelope answer on a socket no request object owns, logs and counts it, and closes it. */
function answerSocket(ctx: ServerContext | undefined, socket: Socket, method: string, e: ApiError): void {
  if (ctx !== undefined) logBare(ctx, method, e.statusCode, e.code, `bare-${++bareRequests}`);
  if (socket.writable) {
    const body = JSON.stringify(errorBody(e));
    const extra = Object.entries(e.headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(
      `HTTP/1.1 ${e.statusCode} ${STATUS_CODES[e.statusCode]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** fastify's `clientErrorHandler` option: Node's parser refused the bytes before any request. */
export function clientErrorHandler(ctx: () => ServerContext | undefined) {
  return (err: Error & { code?: string }, socket: Socket): void => {
    // The client went away: nobody reads an answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [code, message] = CLIENT_ERRORS[err.code ?? ''] ?? [
      'invalid_input' as const,
      'the request is not valid HTTP/1.1 (request line, header or framing)',
    ];
    answerSocket(ctx(), socket, 'unknown', apiError(code, message));
  };
}

/** The HTTP server's `connect` event: CONNECT is no method of the API (Node would just close). */
export function connectHandler(ctx: ServerContext) {
  return (_req: unknown, socket: Socket): void =>
    answerSocket(
      ctx,
      socket,
      'CONNECT',
      new ApiError(405, 'method_not_allowed', 'CONNECT: the service is no proxy', { allow: 'GET, POST' }),
    );
}

/** The methods of the routes, by pattern: a path that exists under another method is a 405. */
export class RouteMethods {
  readonly #routes: { readonly re: RegExp; readonly methods: Set<string> }[] = [];

  /** For fastify's `onRoute` hook. */
  add(route: RouteOptions): void {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const pattern = `^${route.url
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}$`;
    const existing = this.#routes.find((r) => r.re.source === pattern);
    if (existing !== undefined) for (const m of methods) existing.methods.add(m);
    else this.#routes.push({ re: new RegExp(pattern), methods: new Set(methods) });
  }

  /** The methods the path answers to (empty: no route has it). */
  allowed(url: string): string[] {
    const path = url.split('?')[0] ?? '';
    return [...new Set(this.#routes.filter((r) => r.re.test(path)).flatMap((r) => [...r.methods]))].sort();
  }
}
