// POST /v1/dispatch/{event}: runs the event's hooks for the token's tenant and answers the
// DispatchResult (200, whatever the verdict). A dispatch in which any hook was refused `queue_full`
// answers 429 with Retry-After, the partial result included: some hooks did not run, so its verdict
// does not cover the input (a guard that never ran cannot have allowed it). While draining: 503.
// A client that goes away aborts its dispatch (connections.ts: its hooks are killed, nobody waits).
import type { FastifyInstance } from 'fastify';
import type { DispatchResult } from '../../contract/result.js';
import type { DispatchInput } from '../../contract/types.js';
import { tenantOf } from '../auth.js';
import type { ServerContext } from '../context.js';
import { API_ERRORS, ApiError } from '../errors.js';
import { CLIENT_CLOSED, finishRequest } from '../http-app.js';
import { tenantResult } from '../tenant-view.js';

export function dispatchRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post<{ Params: { event: string } }>(
    '/v1/dispatch/:event',
    { config: { access: 'tenant' } },
    async (request, reply) => {
      const controller = ctx.connections.controllerOf(request);
      if (!ctx.drain.admit(controller))
        throw new ApiError(
          503,
          'draining',
          'the server is shutting down; send the dispatch to another replica',
          {
            connection: 'close',
          },
        );
      const tenant = tenantOf(request.hw.principal);
      const started = performance.now();
      let result: DispatchResult;
      request.hw.dispatching = true;
      try {
        result = await ctx.executor.dispatch(request.params.event, (request.body ?? {}) as DispatchInput, {
          tenant,
          signal: controller.signal,
          ...(ctx.traceContext === undefined ? {} : { traceContext: ctx.traceContext(request.headers) }),
        });
      } finally {
        request.hw.dispatching = false;
        ctx.drain.done(controller);
      }
      ctx.metrics.observeDispatch(result, tenant, (performance.now() - started) / 1000);
      // A tenant reads hookwarden's messages without the operator's paths (tenant-view.ts).
      if (tenant !== undefined) result = tenantResult(result);
      request.hw.event = result.event;
      request.hw.decision = result.decision;
      if (request.hw.aborted) finishRequest(ctx, request, CLIENT_CLOSED);
      if (result.hooks.some((h) => h.error?.code === 'queue_full')) {
        request.hw.errorCode = 'queue_full';
        reply.code(API_ERRORS.queue_full).header('retry-after', String(ctx.options.retryAfterSeconds));
        return {
          error: {
            code: 'queue_full',
            message:
              'a hook was not run: this tenant has its maximum of hooks queued (limits.maxQueued); retry after Retry-After seconds',
          },
          result,
        };
      }
      // Serialised here: a string with its type set skips fastify's serializer lookup per request.
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(result));
    },
  );
}
