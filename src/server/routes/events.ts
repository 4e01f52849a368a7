// GET /v1/events with `Accept: text/event-stream` (catalogue.ts answers JSON otherwise): the token's tenant's async events (`async.completed`, `rewake`) as Server-Sent
// Events. Only the tenant's own events: the tenant is the token's (the operator, without --auth or
// with an admin token, gets the events of dispatches made without a tenant). A client that
// reconnects sends `Last-Event-ID` and gets the events after it that are still kept, then the live
// ones; when some were dropped meanwhile it first gets an `event: lost` (docs/scaling.md). The
// stream opens with a `: connected` comment (after the subscription is in place), sends a comment
// every `heartbeatMs` so proxies keep it open, and ends with `event: end` when the server stops.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FeedEvent } from '../../async/event-feed.js';
import { FEED_ID } from '../../async/event-feed.js';
import { tenantOf } from '../auth.js';
import type { ServerContext } from '../context.js';
import { ApiError } from '../errors.js';
import { finishRequest } from '../http-app.js';
import { tenantEvent } from '../tenant-view.js';

/** A comment line this often keeps idle proxies and load balancers from closing the stream. */
const SSE_HEARTBEAT_MS = 15_000;

const frame = (e: FeedEvent) => `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e.data)}\n\n`;

/** Streams the caller's events until it goes away or the server stops. */
export async function streamEvents(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  {
    const header = request.headers['last-event-id'];
    const lastId = Array.isArray(header) ? header[0] : header;
    if (lastId !== undefined && lastId !== '' && !FEED_ID.test(lastId))
      throw new ApiError(
        400,
        'invalid_input',
        'Last-Event-ID: expected the id of an event this stream sent (digits-digits)',
      );
    if (ctx.drain.draining)
      throw new ApiError(503, 'draining', 'the server is shutting down; connect to another replica');
    const tenant = tenantOf(request.hw.principal);
    const slot = ctx.streams.take(tenant);
    if (typeof slot === 'string')
      throw new ApiError(
        429,
        'too_many_streams',
        slot === 'tenant'
          ? `this tenant has ${ctx.options.maxEventStreamsPerTenant} event streams open on this server already (maxEventStreamsPerTenant); close one, or reconnect to another replica`
          : `this server has ${ctx.options.maxEventStreams} event streams open already (maxEventStreams); connect to another replica`,
        { 'retry-after': String(ctx.options.retryAfterSeconds) },
      );
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    let open = true;
    let stop: (() => void) | undefined;
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), SSE_HEARTBEAT_MS);
    heartbeat.unref();
    const close = () => {
      if (!open) return;
      open = false;
      clearInterval(heartbeat);
      slot();
      stop?.();
      finishRequest(ctx, request, 200);
    };
    res.on('close', close);
    const subscriber = {
      // A tenant reads hookwarden's messages without the operator's paths (tenant-view.ts).
      event: (e: FeedEvent) => open && res.write(frame(tenant === undefined ? e : tenantEvent(e))),
      lost: () => open && res.write('event: lost\ndata: {}\n\n'),
      end: (reason: string) => {
        if (!open) return;
        res.end(`event: end\ndata: ${JSON.stringify({ reason })}\n\n`);
        close();
      },
    };
    try {
      stop = await ctx.feed.subscribe(tenant, lastId === '' ? undefined : lastId, subscriber);
    } catch {
      // The feed could not start (Redis mode, Redis away): the stream ends at once; the client retries.
      subscriber.end('the event stream could not start (its Redis does not answer); reconnect later');
      return;
    }
    if (!open) stop();
    else res.write(': connected\n\n');
  }
}
