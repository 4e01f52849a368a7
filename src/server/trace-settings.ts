// Whether `hookwarden serve` exports traces, and how: read from the standard OpenTelemetry variables
// (https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/). Traces are on
// when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)
// or OTEL_TRACES_EXPORTER=otlp; off with OTEL_TRACES_EXPORTER=none or OTEL_SDK_DISABLED=true, and
// off when nothing is set. A value hookwarden cannot honour stops the start with a message that
// says what to write instead: a typo never silently turns traces off or sampling up.
import { ServeOptionsError } from './options.js';

const TRACE_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
type TraceProtocol = (typeof TRACE_PROTOCOLS)[number];

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
type SamplerName = (typeof SAMPLERS)[number];

/** The batch span processor's limits (OTEL_BSP_*), where set. */
interface BatchSettings {
  readonly scheduledDelayMillis?: number;
  readonly maxQueueSize?: number;
  readonly maxExportBatchSize?: number;
  readonly exportTimeoutMillis?: number;
}

export interface TraceSettings {
  readonly protocol: TraceProtocol;
  readonly sampler: SamplerName;
  /** traceidratio samplers: the fraction of traces kept, 0 to 1. */
  readonly ratio: number;
  readonly batch: BatchSettings;
}

type Env = Readonly<Record<string, string | undefined>>;

const set = (env: Env, name: string): string | undefined => {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
};

function protocolOf(env: Env): TraceProtocol {
  const name = set(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL')
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const v = set(env, name) ?? 'http/protobuf';
  if ((TRACE_PROTOCOLS as readonly string[]).includes(v)) return v as TraceProtocol;
  const grpc =
    v === 'grpc'
      ? ": hookwarden serve exports over HTTP; point it at the collector's OTLP/HTTP port (4318)"
      : '';
  throw new ServeOptionsError(
    `${name}: expected http/protobuf or http/json, got ${JSON.stringify(v)}${grpc}`,
  );
}

function samplerOf(env: Env): { sampler: SamplerName; ratio: number } {
  const v = set(env, 'OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on';
  if (!(SAMPLERS as readonly string[]).includes(v))
    throw new ServeOptionsError(
      `OTEL_TRACES_SAMPLER: expected one of ${SAMPLERS.join(', ')}, got ${JSON.stringify(v)}`,
    );
  const arg = set(env, 'OTEL_TRACES_SAMPLER_ARG');
  const ratio = arg === undefined ? 1 : Number(arg);
  if (v.endsWith('traceidratio') && !(ratio >= 0 && ratio <= 1))
    throw new ServeOptionsError(
      `OTEL_TRACES_SAMPLER_ARG: expected a fraction from 0 to 1 (e.g. 0.25), got ${JSON.stringify(arg)}`,
    );
  return { sampler: v as SamplerName, ratio };
}

function batchOf(env: Env): BatchSettings {
  const out: Record<string, number> = {};
  const fields = {
    OTEL_BSP_SCHEDULE_DELAY: 'scheduledDelayMillis',
    OTEL_BSP_MAX_QUEUE_SIZE: 'maxQueueSize',
    OTEL_BSP_MAX_EXPORT_BATCH_SIZE: 'maxExportBatchSize',
    OTEL_BSP_EXPORT_TIMEOUT: 'exportTimeoutMillis',
  } as const;
  for (const [name, key] of Object.entries(fields)) {
    const v = set(env, name);
    if (v === undefined) continue;
    if (!/^\d{1,9}$/.test(v) || Number(v) < 1)
      throw new ServeOptionsError(`${name}: expected a whole number above 0, got ${JSON.stringify(v)}`);
    out[key] = Number(v);
  }
  return out;
}

/** The trace settings from `env`, or undefined when traces are off. Throws ServeOptionsError. */
export function traceSettings(env: Env = process.env): TraceSettings | undefined {
  const disabled = set(env, 'OTEL_SDK_DISABLED');
  if (disabled?.toLowerCase() === 'true') return undefined;
  const exporters = (set(env, 'OTEL_TRACES_EXPORTER') ?? '').split(',').map((e) => e.trim());
  const endpoint = set(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? set(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const unknown = exporters.filter((e) => e !== '' && e !== 'otlp' && e !== 'none');
  if (unknown.length > 0)
    throw new ServeOptionsError(
      `OTEL_TRACES_EXPORTER: hookwarden serve exports traces with otlp (or none), got ${JSON.stringify(unknown.join(','))}${unknown.includes('console') ? ': stdout carries only the listening line' : ''}`,
    );
  if (exporters.includes('none')) return undefined;
  if (!exporters.includes('otlp') && endpoint === undefined) return undefined;
  return { protocol: protocolOf(env), ...samplerOf(env), batch: batchOf(env) };
}
