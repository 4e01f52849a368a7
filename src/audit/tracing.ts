// OpenTelemetry spans of the record stage (docs/library.md "Traces"): one span per dispatch, in the
// caller's trace, and one child span per hook record; one span per async run, linked to the dispatch
// that queued it. A span carries what the audit record holds (ids, outcome, error code, times) and
// nothing of a hook's input or output: never a reason, a message, a tool input or a rewrite.
//
// Loaded only when a tracer is given (executor/tracing-option.ts imports it lazily): without one, no
// dispatch touches this file or the OpenTelemetry API.
import {
  type Attributes,
  type Context,
  context,
  isValidSpanId,
  isValidTraceId,
  type Link,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { tenantLabel } from '../contract/tenant-label.js';
import type { AuditRecord } from './audit-log.js';
import { type Interval, nowMs } from './span-times.js';

/** Span names: `dispatch <event>`, `hook <hook id>`, `async hook <hook id>`. */
export const SPAN_NAMES = { dispatch: 'dispatch', hook: 'hook', async: 'async hook' } as const;

/** Every attribute a hookwarden span may carry (docs/serve.md and docs/library.md list each). */
export const ATTR = {
  event: 'hookwarden.event',
  tenant: 'hookwarden.tenant',
  decision: 'hookwarden.decision',
  decidedBy: 'hookwarden.decided_by',
  interrupted: 'hookwarden.interrupted',
  hooks: 'hookwarden.hooks',
  hookId: 'hookwarden.hook.id',
  type: 'hookwarden.hook.type',
  scope: 'hookwarden.hook.scope',
  isolation: 'hookwarden.hook.isolation',
  containment: 'hookwarden.hook.containment',
  outcome: 'hookwarden.hook.outcome',
  errorCode: 'hookwarden.hook.error_code',
  queuedMs: 'hookwarden.hook.queued_ms',
  runMs: 'hookwarden.hook.run_ms',
  deadlineMs: 'hookwarden.hook.deadline_ms',
  memoryBytes: 'hookwarden.hook.memory_bytes',
  asyncId: 'hookwarden.hook.async_id',
  attempts: 'hookwarden.hook.attempts',
  retriedAfter: 'hookwarden.hook.retried_after',
  /** OpenTelemetry's own name for what failed (a hook's error code, a dispatch's HookwardenError code). */
  errorType: 'error.type',
} as const;

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C traceparent of a span context (async jobs carry it to their run, on any replica). */
function traceparentOf(span: Span): string | undefined {
  const sc = span.spanContext();
  if (!isValidTraceId(sc.traceId) || !isValidSpanId(sc.spanId)) return undefined;
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** A link to the span a traceparent names; undefined when it is not one (data from Redis is checked). */
function linkTo(traceparent: string | undefined): Link | undefined {
  const m = traceparent === undefined ? null : TRACEPARENT.exec(traceparent);
  if (m === null || !isValidTraceId(m[1]!) || !isValidSpanId(m[2]!)) return undefined;
  return {
    context: { traceId: m[1]!, spanId: m[2]!, traceFlags: Number.parseInt(m[3]!, 16), isRemote: true },
  };
}

/** The attributes of a hook span: its audit record's fields, and the isolation it ran under. */
function hookAttributes(r: AuditRecord, tenant: string, isolation: string | undefined): Attributes {
  const a: Attributes = {
    [ATTR.event]: r.event,
    [ATTR.tenant]: tenant,
    [ATTR.hookId]: r.hookId,
    [ATTR.type]: r.type,
    [ATTR.scope]: r.scope,
    [ATTR.outcome]: r.outcome,
    [ATTR.queuedMs]: r.queuedMs,
    [ATTR.runMs]: r.runMs,
    [ATTR.deadlineMs]: r.deadlineMs,
  };
  if (isolation !== undefined) a[ATTR.isolation] = isolation;
  if (r.containment !== undefined) a[ATTR.containment] = r.containment;
  if (r.errorCode !== undefined) {
    a[ATTR.errorCode] = r.errorCode;
    a[ATTR.errorType] = r.errorCode;
  }
  if (r.memoryBytes !== undefined) a[ATTR.memoryBytes] = r.memoryBytes;
  if (r.asyncId !== undefined) a[ATTR.asyncId] = r.asyncId;
  if (r.attempts !== undefined) a[ATTR.attempts] = r.attempts;
  if (r.retriedAfter !== undefined) a[ATTR.retriedAfter] = r.retriedAfter;
  return a;
}

/** Hooks that failed (an error code) end their span with status ERROR; a deny is an answer, not an error. */
const FAILED: ReadonlySet<string> = new Set(['error', 'timeout', 'limit']);

/** What a dispatch ended with, for its span. */
export interface DispatchEnd {
  readonly event: string;
  readonly tenant: string | undefined;
  readonly decision: string;
  readonly decidedBy: string | undefined;
  readonly interrupted: boolean;
  readonly hooks: number;
}

/** The span of one dispatch: its hooks' spans are made under it when the dispatch has answered. */
export class DispatchSpan {
  readonly #tracing: Tracing;
  readonly #span: Span;
  readonly #parent: Context;
  #children: Context | undefined;

  constructor(tracing: Tracing, span: Span, parent: Context) {
    this.#tracing = tracing;
    this.#span = span;
    this.#parent = parent;
  }

  /** False when the span is not sampled: nothing under it is made. */
  get recording(): boolean {
    return this.#span.isRecording();
  }

  /** The traceparent an async job carries to link its run to this dispatch (undefined: not sampled). */
  traceparent(): string | undefined {
    try {
      return this.#span.isRecording() ? traceparentOf(this.#span) : undefined;
    } catch {
      return undefined; // a tracer that throws never fails a dispatch
    }
  }

  /** The span of one hook record; `at`: when its lane took it and its answer came back. */
  hook(record: AuditRecord, isolation: string | undefined, at: Interval | undefined): void {
    if (!this.#span.isRecording()) return;
    this.#children ??= trace.setSpan(this.#parent, this.#span);
    const endMs = at?.endMs ?? nowMs();
    const startMs = at?.startMs ?? endMs - record.queuedMs - record.runMs;
    const tenant = this.#tracing.tenantName(record.tenant);
    const span = this.#tracing.tracer.startSpan(
      `${SPAN_NAMES.hook} ${record.hookId}`,
      { attributes: hookAttributes(record, tenant, isolation), startTime: startMs },
      this.#children,
    );
    if (FAILED.has(record.outcome)) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(endMs);
  }

  /** Ends the dispatch span with its verdict. */
  end(e: DispatchEnd): void {
    const a: Attributes = {
      [ATTR.event]: e.event,
      [ATTR.tenant]: this.#tracing.tenantName(e.tenant),
      [ATTR.decision]: e.decision,
      [ATTR.hooks]: e.hooks,
    };
    if (e.decidedBy !== undefined) a[ATTR.decidedBy] = e.decidedBy;
    if (e.interrupted) a[ATTR.interrupted] = true;
    this.#span.updateName(`${SPAN_NAMES.dispatch} ${e.event}`);
    this.#span.setAttributes(a);
    this.#span.end();
  }

  /** Ends the span of a dispatch that rejected (`code`: its HookwardenError code; never the message). */
  fail(code: string, tenant: string | undefined): void {
    this.#span.setAttributes({
      [ATTR.errorType]: code,
      [ATTR.tenant]: this.#tracing.tenantName(tenant),
    });
    this.#span.setStatus({ code: SpanStatusCode.ERROR });
    this.#span.end();
  }
}

/** The spans of one executor, made with the tracer the caller gave. */
export class Tracing {
  readonly tracer: Tracer;
  readonly #named: (tenant: string) => boolean;

  /** `named`: whether the configuration in force names a tenant (tenant-label.ts). */
  constructor(tracer: Tracer, named: (tenant: string) => boolean) {
    this.tracer = tracer;
    this.#named = named;
  }

  tenantName(tenant: string | undefined): string {
    return tenantLabel(tenant, this.#named);
  }

  /**
   * Starts a dispatch's span under `parent` (default: the active context). Its kind is SERVER when the
   * parent came from another process (serve's `traceparent`), else INTERNAL.
   */
  startDispatch(parent: Context | undefined): DispatchSpan {
    const ctx = parent ?? context.active();
    const remote = trace.getSpanContext(ctx)?.isRemote === true;
    const span = this.tracer.startSpan(
      SPAN_NAMES.dispatch,
      { kind: remote ? SpanKind.SERVER : SpanKind.INTERNAL },
      ctx,
    );
    return new DispatchSpan(this, span, ctx);
  }

  /**
   * The span of an async hook's run (one per completion, made where it completed): a trace of its
   * own, linked to the dispatch that queued it (`queuedBy`, the job's traceparent), from the time it
   * was queued to its end.
   */
  asyncRun(
    record: AuditRecord,
    isolation: string | undefined,
    queuedBy: string | undefined,
    enqueuedAt: number,
  ): void {
    const link = linkTo(queuedBy);
    const span = this.tracer.startSpan(`${SPAN_NAMES.async} ${record.hookId}`, {
      kind: SpanKind.CONSUMER,
      root: true,
      startTime: Math.min(enqueuedAt, nowMs()),
      attributes: hookAttributes(record, this.tenantName(record.tenant), isolation),
      ...(link === undefined ? {} : { links: [link] }),
    });
    if (FAILED.has(record.outcome)) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }
}
