// GET /v1/events: the event catalogue in force, as JSON. The same path will serve Server-Sent Events
// of a tenant's async hook completions to `Accept: text/event-stream`; until then such a request
// (one that does not also accept JSON) is answered 406, so a client never mistakes JSON for a stream.
// GET /openapi.json: the API's description (public: it holds no configuration).
import type { FastifyInstance } from 'fastify';
import { EVENT_ALIASES } from '../../contract/events.js';
import type { ServerContext } from '../context.js';
import { ApiError } from '../errors.js';
import { openApiDocument } from '../openapi.js';

/** Whether an Accept header asks for an event stream and not for JSON. */
export function wantsOnlyEventStream(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  return (
    types.includes('text/event-stream') &&
    !types.some((t) => t === 'application/json' || t === 'application/*' || t === '*/*')
  );
}

export function catalogueRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get('/v1/events', { config: { access: 'tenant' } }, async (request) => {
    if (wantsOnlyEventStream(request.headers.accept))
      throw new ApiError(
        406,
        'not_acceptable',
        'Server-Sent Events of async hook completions are not served yet; ask for application/json',
      );
    const catalogue = ctx.generation().catalogue;
    const events = catalogue.names().map((name) => {
      const e = catalogue.get(name)!;
      return { name, mode: e.mode, canDeny: e.canDeny, honours: [...e.honours], toolScoped: e.toolScoped };
    });
    const aliases: Record<string, string> = {};
    for (const [alias, target] of Object.entries(EVENT_ALIASES))
      if (catalogue.resolve(alias) !== undefined) aliases[alias] = target.event;
    return { events, aliases };
  });

  const document = JSON.stringify(openApiDocument());
  app.get('/openapi.json', { config: { access: 'public' } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(document),
  );
}
