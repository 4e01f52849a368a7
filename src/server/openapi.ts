// GET /openapi.json: the OpenAPI 3.1 document of the HTTP API, generated from the zod schemas in
// api-schemas.ts (z.toJSONSchema, JSON Schema 2020-12 as OpenAPI 3.1 uses), so the document and
// the server's answers come from one definition. Built once per server.
import { z } from 'zod';
import { VERSION } from '../contract/version.js';
import {
  dispatchBodySchema,
  dispatchResultSchema,
  errorBodySchema,
  eventCatalogueSchema,
  healthSchema,
  queueFullBodySchema,
  reloadResultSchema,
} from './api-schemas.js';

type Json = Record<string, unknown>;

function component(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string, description: string) => ({
  description,
  content: { 'application/json': { schema: ref(name) } },
});
const error = (description: string) => json('Error', description);

const UNAUTHORIZED = error('No token, or a token the auth file does not hold (with --auth).');
const FORBIDDEN = error('A tenant token on an admin route.');

/** The dispatch route and the event catalogue (and stream). */
function dispatchPaths(): Json {
  return {
    '/v1/dispatch/{event}': {
      post: {
        summary: 'Dispatch an event: run its hooks for the token’s tenant and fold their answers.',
        security: [{ bearer: [] }],
        parameters: [
          {
            name: 'event',
            in: 'path',
            required: true,
            description: 'A catalogue name (BeforeTool…) or an alias (PreToolUse…).',
            schema: { type: 'string' },
          },
        ],
        requestBody: {
          required: false,
          description: 'An empty body is {}.',
          content: { 'application/json': { schema: ref('DispatchBody') } },
        },
        responses: {
          '200': json(
            'DispatchResult',
            'The verdict (allow, deny, ask, defer or passthrough) is in the body.',
          ),
          '400': error('The body is not JSON, or not a valid HookInput (`invalid_input`).'),
          '401': UNAUTHORIZED,
          '404': error('Unknown event (`unknown_event`).'),
          '413': error('The body is larger than limits.maxInputBytes (`body_too_large`).'),
          '415': error('Content-Type is not application/json.'),
          '429': {
            ...json(
              'QueueFull',
              'A hook was refused because the tenant’s queue is full (`queue_full`, with the partial result, whose decision is deny on a deny-capable event and absent elsewhere), or the tenant is over `limits.tenantRatePerSec` (`rate_limited`, the error only: nothing ran); retry after Retry-After.',
            ),
            headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds.' } },
          },
          '503': error('The server is draining (`draining`) or closed; send it to another replica.'),
        },
      },
    },
    '/v1/events': {
      get: {
        summary:
          'The event catalogue (names, modes, what each event honours) and its aliases; with `Accept: text/event-stream` only, the tenant’s async events as Server-Sent Events (docs/scaling.md).',
        security: [{ bearer: [] }],
        parameters: [
          {
            name: 'Last-Event-ID',
            in: 'header',
            required: false,
            schema: { type: 'string', pattern: '^\\d{1,20}-\\d{1,20}$' },
            description: 'Event stream: resume after this event id.',
          },
        ],
        responses: {
          '200': {
            description:
              'The catalogue in force (JSON), or the stream: `async.completed` and `rewake` events, `lost` when events after Last-Event-ID were dropped, `end` when the server stops.',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/EventCatalogue' } },
              'text/event-stream': {},
            },
          },
          '400': error('Last-Event-ID is not an id this stream sent (`invalid_input`).'),
          '401': UNAUTHORIZED,
          '429': error(
            'Event stream: the tenant (or the server) has as many streams open as it may (`too_many_streams`, maxEventStreamsPerTenant / maxEventStreams); retry after Retry-After.',
          ),
          '503': error('The server is draining (`draining`).'),
        },
      },
    },
  };
}

/** Reload, metrics, health and this document. */
function otherPaths(): Json {
  return {
    '/v1/reload': {
      post: {
        summary: 'Reload the configuration (last-known-good) and the auth file. Admin tokens only.',
        security: [{ bearer: [] }],
        responses: {
          '200': json('ReloadResult', '`ok: false` when refused; the configuration in force stays.'),
          '401': UNAUTHORIZED,
          '403': FORBIDDEN,
        },
      },
    },
    '/metrics': {
      get: {
        summary: 'Prometheus metrics. Admin tokens only (or unauthenticated on --metrics-listen).',
        security: [{ bearer: [] }],
        responses: {
          '200': { description: 'Prometheus text format.', content: { 'text/plain': {} } },
          '401': UNAUTHORIZED,
          '403': FORBIDDEN,
        },
      },
    },
    '/healthz': {
      get: { summary: 'Liveness.', responses: { '200': json('Health', '{"status":"ok"}') } },
    },
    '/readyz': {
      get: {
        summary: 'Readiness: configuration loaded, worker pools warm, not draining.',
        responses: { '200': json('Health', '{"status":"ready"}'), '503': error('Not ready (`draining`).') },
      },
    },
    '/openapi.json': {
      get: { summary: 'This document.', responses: { '200': { description: 'OpenAPI 3.1.' } } },
    },
  };
}

/** The OpenAPI document of the service. */
export function openApiDocument(): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'hookwarden',
      version: VERSION,
      description:
        'Runs the hooks registered for an event and answers one folded verdict. Reference: docs/serve.md.',
    },
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'A token from `hookwarden serve token`; its tenant decides which hooks run.',
        },
      },
      schemas: {
        DispatchBody: component(dispatchBodySchema, 'input'),
        DispatchResult: component(dispatchResultSchema, 'output'),
        Error: component(errorBodySchema, 'output'),
        QueueFull: component(queueFullBodySchema, 'output'),
        ReloadResult: component(reloadResultSchema, 'output'),
        EventCatalogue: component(eventCatalogueSchema, 'output'),
        Health: component(healthSchema, 'output'),
      },
    },
    paths: {
      ...dispatchPaths(),
      ...otherPaths(),
    },
  };
}
