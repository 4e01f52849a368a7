// One fastify instance with the service's HTTP rules: strict JSON bodies up to the input limit, the
// timeouts and header limit that stop slow or oversized clients, authentication before anything
// else, the `{"error": {code, message}}` envelope for every failure, one log line and one metric
// per request. No CORS headers are ever sent: browsers cannot call the service from other origins.
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { authenticateOn, authorize } from './auth.js';
import type { RequestState, ServerContext } from './context.js';
import { ApiError, errorBody, toApiError } from './errors.js';
import {
  clientErrorHandler,
  connectHandler,
  echoPath,
  frameworkErrorHandler,
  RouteMethods,
} from './framework-errors.js';
import { logRequest } from './logging.js';

/** The body as JSON: `__proto__` stays an ordinary key (JSON.parse never sets a prototype); empty is {}. */
function parseJsonBody(_request: unknown, body: string, done: (err: Error | null, value?: unknown) => void) {
  if (body.trim() === '') return done(null, {});
  try {
    done(null, JSON.parse(body));
  } catch (err) {
    const what = (err as Error).message.replace(/, ".*" is not valid JSON$/s, '');
    done(new ApiError(400, 'invalid_input', `the body is not JSON: ${what}`));
  }
}

const newRequestState = (): RequestState => ({
  principal: undefined,
  startedAt: performance.now(),
  logged: false,
  aborted: false,
  dispatching: false,
});

/** 405 when the path has other methods, 404 when it has none. */
function unrouted(method: string, url: string, routes: RouteMethods): ApiError {
  const path = echoPath(url);
  const allowed = routes.allowed(url);
  return allowed.length > 0
    ? new ApiError(405, 'method_not_allowed', `${path} answers ${allowed.join(', ')}, not ${method}`, {
        allow: allowed.join(', '),
      })
    : new ApiError(404, 'not_found', `no route ${method} ${path}; the API is described at GET /openapi.json`);
}

export function createHttpApp(ctx: ServerContext): FastifyInstance {
  const o = ctx.options;
  const routes = new RouteMethods();
  const app = Fastify({
    logger: false,
    bodyLimit: ctx.maxBodyBytes,
    requestTimeout: o.requestTimeoutMs,
    keepAliveTimeout: o.keepAliveTimeoutMs,
    http: {
      maxHeaderSize: o.maxHeaderBytes,
      headersTimeout: o.headersTimeoutMs,
      // Node checks the two timeouts on this interval (default 30 s): a slow client is cut off soon
      // after its deadline, not up to 30 s later.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(o.headersTimeoutMs / 2))),
    },
    // Draining is ours (drain.ts): the routes answer 503 in the error envelope.
    return503OnClosing: false,
    exposeHeadRoutes: false,
    // Answers fastify and Node's parser would write in their own shape: ours (framework-errors.ts).
    frameworkErrors: frameworkErrorHandler(ctx),
    clientErrorHandler: clientErrorHandler(() => ctx),
  });
  app.addHook('onRoute', (route) => routes.add(route));
  app.server.on('connect', connectHandler(ctx));
  app.decorateRequest('hw', null as never);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);

  app.addHook('onRequest', (request, _reply, done) => {
    request.hw = newRequestState();
    ctx.drain.requestStarted();
    const conn = ctx.connections.opened(request);
    const access = request.routeOptions.config.access ?? 'public';
    try {
      request.hw.principal = authenticateOn(conn, ctx.tokens(), access, request.headers.authorization);
      authorize(request.hw.principal, access);
    } catch (err) {
      return done(err as Error);
    }
    done();
  });

  app.setErrorHandler((err, request, reply) => {
    const e = toApiError(err, request.id, ctx.maxBodyBytes);
    request.hw ??= newRequestState();
    request.hw.errorCode = e.code;
    if (e.code === 'internal_error') {
      // A failure of the server (not a 503 it gives on purpose while draining): the stack, without
      // its first line (a message may quote a value from the request).
      const stack = (err as Error).stack?.split('\n').slice(1).join('\n');
      ctx.logger.error({ reqId: request.id, errorName: (err as Error).name, stack }, 'request failed');
    }
    if (request.hw.aborted) finishRequest(ctx, request, CLIENT_CLOSED);
    return reply.code(e.statusCode).headers(e.headers).send(errorBody(e));
  });

  app.setNotFoundHandler((request, reply) => {
    request.hw ??= newRequestState();
    const e = unrouted(request.method, request.url, routes);
    request.hw.errorCode = e.code;
    return reply.code(e.statusCode).headers(e.headers).send(errorBody(e));
  });

  app.addHook('onResponse', (request, reply, done) => {
    finishRequest(ctx, request, reply.statusCode, reply.elapsedTime);
    done();
  });
  return app;
}

/** The status logged for a request whose client went away before the answer (nginx's 499). */
export const CLIENT_CLOSED = 499;

/** The request's log line and metric, once. */
export function finishRequest(
  ctx: ServerContext,
  request: FastifyRequest,
  status: number,
  durationMs = performance.now() - request.hw.startedAt,
): void {
  const hw = request.hw;
  if (hw === null || hw.logged) return;
  hw.logged = true;
  ctx.drain.requestFinished();
  ctx.connections.closed(request);
  const route = request.routeOptions.url ?? 'unmatched';
  // Named as the metrics name it: its id, `other`, or `none` for the operator.
  const tenant =
    hw.principal === undefined
      ? undefined
      : ctx.metrics.tenantLabel(hw.principal.kind === 'tenant' ? hw.principal.tenant : undefined);
  ctx.metrics.countRequest(route, request.method, status);
  logRequest(ctx.logger, {
    reqId: request.id,
    method: request.method,
    route,
    status,
    durationMs,
    ...(tenant !== undefined ? { tenant } : {}),
    ...(hw.event !== undefined ? { event: hw.event } : {}),
    ...(hw.decision !== undefined ? { decision: hw.decision } : {}),
    ...(hw.errorCode !== undefined ? { errorCode: hw.errorCode } : {}),
  });
}

/** A request whose connection closed before its answer: logged now, or by its dispatch once it answers. */
export function requestGone(ctx: ServerContext, request: FastifyRequest): void {
  const hw = request.hw;
  if (hw === null || hw.logged) return;
  hw.aborted = true;
  if (!hw.dispatching) finishRequest(ctx, request, CLIENT_CLOSED);
}
