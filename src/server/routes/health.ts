// Probes, without authentication: GET /healthz (the process answers) and GET /readyz (configuration
// loaded, worker pools warm, not draining: 503 otherwise, so a load balancer stops sending work).
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../context.js';

export function healthRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/healthz', { config: { access: 'public' } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { access: 'public' } }, async () => {
    const problem = ctx.notReady();
    if (problem !== undefined) throw problem;
    return { status: 'ready' };
  });
}
