// The OpenTelemetry SDK of `hookwarden serve`, when trace-settings.ts says traces are on: a tracer
// provider with the sampler of OTEL_TRACES_SAMPLER, a batch span processor (OTEL_BSP_*) and the OTLP
// exporter of OTEL_EXPORTER_OTLP_PROTOCOL (which reads the endpoint, headers, timeout, compression and
// certificates from the OTEL_EXPORTER_OTLP_* variables itself); the resource names the service
// (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES; default `hookwarden`). The caller's W3C `traceparent`
// is read by the W3C trace-context propagator. Imported lazily: a server without traces never loads
// the SDK. No global is registered (no context manager: every dispatch is given its parent context).
import {
  type Context,
  DiagLogLevel,
  defaultTextMapGetter,
  diag,
  ROOT_CONTEXT,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import {
  defaultResource,
  detectResources,
  envDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { VERSION } from '../contract/version.js';
import type { Logger } from './logging.js';
import type { TraceSettings } from './trace-settings.js';

/** The service's traces: its tracer, the caller's context from request headers, and the final flush. */
export interface ServeTracing {
  readonly tracer: Tracer;
  /** The caller's trace context (a `traceparent` header), or the root context without one. */
  extract(headers: Readonly<Record<string, string | string[] | undefined>>): Context;
  /** Exports what is left, for at most `timeoutMs`, and stops. */
  shutdown(timeoutMs: number): Promise<void>;
}

function samplerOf(s: TraceSettings): Sampler {
  const ratio = () => new TraceIdRatioBasedSampler(s.ratio);
  switch (s.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** The SDK's own complaints (an export that failed: the collector is down) as warn lines. */
function routeDiagnostics(logger: Logger): void {
  const warn = (message: string) => logger.warn({ component: 'opentelemetry' }, message);
  diag.setLogger(
    { error: warn, warn, info: () => {}, debug: () => {}, verbose: () => {} },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
}

/** Starts the SDK for `settings`. */
export function startTracing(settings: TraceSettings, logger: Logger): ServeTracing {
  routeDiagnostics(logger);
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'hookwarden', 'service.version': VERSION }))
    .merge(detectResources({ detectors: [envDetector] }));
  const exporter = settings.protocol === 'http/json' ? new JsonExporter() : new ProtobufExporter();
  const provider = new TracerProvider({
    resource,
    sampler: samplerOf(settings),
    spanProcessors: [new BatchSpanProcessor({ exporter, ...settings.batch })],
  });
  const propagator = new W3CTraceContextPropagator();
  return {
    tracer: provider.getTracer('hookwarden', VERSION),
    extract: (headers) => propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter),
    async shutdown(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs).unref();
      });
      await Promise.race([provider.shutdown().catch(() => {}), late]);
      clearTimeout(timer);
    },
  };
}
