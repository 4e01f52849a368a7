// What the routes share: the executor, the tokens in force, the drain, metrics and the log. One
// object per server, built by server.ts.
import type { Context } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import type { QueueStatus } from '../async/async-queue.js';
import type { EventFeed } from '../async/event-feed.js';
import type { Generation } from '../dispatch/generation.js';
import type { Executor } from '../executor/executor.js';
import type { ReloadResult } from '../executor/reload.js';
import type { HookPool } from '../pool/pool.js';
import type { Access } from './auth.js';
import type { Connections } from './connections.js';
import type { Drain } from './drain.js';
import type { ApiError } from './errors.js';
import type { Logger } from './logging.js';
import type { ServerMetrics } from './metrics.js';
import type { ResolvedServeOptions } from './options.js';
import type { StreamSlots } from './stream-slots.js';
import type { Principal, TokenTable } from './tokens.js';

/** POST /v1/reload's answer: the executor's ReloadResult, and the auth file's reload. */
export type ServeReloadResult = ReloadResult & {
  readonly auth?:
    | { readonly ok: true; readonly tokens: number }
    | { readonly ok: false; readonly reason: string };
};

export interface ServerContext {
  readonly executor: Executor;
  readonly pool: HookPool;
  /** The configuration generation in force (catalogue, limits). */
  readonly generation: () => Generation;
  readonly drain: Drain;
  readonly connections: Connections;
  readonly metrics: ServerMetrics;
  readonly logger: Logger;
  readonly options: ResolvedServeOptions;
  /** Largest body of a dispatch (limits.maxInputBytes when the server started). */
  readonly maxBodyBytes: number;
  /** The tokens in force; undefined without --auth (every request is the operator's). */
  readonly tokens: () => TokenTable | undefined;
  /** Why the server is not ready (503), or undefined when it is. */
  readonly notReady: () => ApiError | undefined;
  readonly reload: () => Promise<ServeReloadResult>;
  /** The async events streamed by GET /v1/events (text/event-stream). */
  readonly feed: EventFeed;
  /** The async queue's status (/readyz: whether Redis answers). */
  readonly queueStatus: () => QueueStatus;
  /** The open event streams, counted against maxEventStreams(PerTenant). */
  readonly streams: StreamSlots;
  /** Traces on (OTEL_* variables): the caller's trace context from a request's headers (`traceparent`). */
  readonly traceContext?: ((headers: FastifyRequest['headers']) => Context) | undefined;
}

/** Per-request state: who is calling, and what goes into the request's log line. */
export interface RequestState {
  principal: Principal | undefined;
  readonly startedAt: number;
  /** The log line is written (once per request). */
  logged: boolean;
  /** The client went away before the answer. */
  aborted: boolean;
  /** A dispatch is running for this request (it writes the line of an aborted request itself). */
  dispatching: boolean;
  event?: string;
  decision?: string;
  errorCode?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    hw: RequestState;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
}
