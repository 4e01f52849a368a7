// Operator routes: POST /v1/reload (the configuration, last-known-good, and the auth file) and
// GET /metrics. Admin tokens only (every caller without --auth).
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

export function adminRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/v1/reload', { config: { access: 'admin' } }, () => ctx.reload());
  metricsRoute(app, ctx, 'admin');
}

/** GET /metrics: admin-only on the API listener, public on --metrics-listen. */
export function metricsRoute(app: FastifyInstance, ctx: ServerContext, access: 'admin' | 'public'): void {
  app.get('/metrics', { config: { access } }, async (_request, reply) =>
    reply.type(ctx.metrics.contentType).send(await ctx.metrics.render()),
  );
}
