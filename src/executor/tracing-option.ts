// createExecutor's `tracer` option: checked at the boundary; the span code (audit/tracing.ts, which
// loads the OpenTelemetry API) is imported only when a tracer is given, so an executor without one
// neither loads the API nor makes a span.
import type { Tracer } from '@opentelemetry/api';
import type { Tracing } from '../audit/tracing.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { renderValue } from '../contract/messages.js';

/** The `tracer` option: an OpenTelemetry Tracer (anything with `startSpan`), or undefined. */
export function checkTracer(value: unknown): Tracer | undefined {
  if (value === undefined) return undefined;
  const t = value as { startSpan?: unknown } | null;
  if (typeof t !== 'object' || t === null || typeof t.startSpan !== 'function')
    throw new HookwardenError(
      'invalid_options',
      `tracer: expected an OpenTelemetry Tracer (trace.getTracer('hookwarden') of @opentelemetry/api), got ${renderValue(value)}`,
    );
  return value as Tracer;
}

/** What makes the executor's Tracing once it can say which tenants its configuration names. */
export type TracingFactory = (named: (tenant: string) => boolean) => Tracing;

/** Loads the span code for `tracer` (undefined: nothing is loaded). */
export async function loadTracing(tracer: Tracer | undefined): Promise<TracingFactory | undefined> {
  if (tracer === undefined) return undefined;
  const { Tracing } = await import('../audit/tracing.js');
  return (named) => new Tracing(tracer, named);
}
