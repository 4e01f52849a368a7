// Reading a saved `bench --json` result back (`bench report`, `bench compare`). The file is input
// like any other: size-capped, parsed, and checked field by field against the schema-2 shape, with
// messages that name the file, the JSON path and the value. Maps keyed by hook or tenant ids are
// rebuilt as null-prototype objects, so an id such as "__proto__" stays an ordinary key.
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { renderValue } from '../config/diagnostics.js';
import { ON_ERROR_MODES, VERDICTS } from '../contract/decisions.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { CONFIGURED_HOOK_TYPES } from '../contract/types.js';
import { BENCH_SCHEMA, type BenchResult } from './bench-result.js';
import { HOOK_ISOLATIONS } from './result-figures.js';

/** Largest result file read (a result is usually well under 1 MiB). */
const MAX_RESULT_BYTES = 64 << 20;

/** A map with arbitrary string keys, validated value by value, as a null-prototype object. */
function idMap<T extends z.ZodType>(value: T) {
  return z.unknown().transform((raw, ctx) => {
    const out = Object.create(null) as Record<string, z.output<T>>;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      ctx.addIssue({ code: 'custom', message: 'expected an object' });
      return z.NEVER;
    }
    for (const [key, v] of Object.entries(raw)) {
      const parsed = value.safeParse(v);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: 'custom', message: issue.message, path: [key, ...issue.path] });
        continue;
      }
      out[key] = parsed.data;
    }
    return out;
  });
}

const ms = z.number().nonnegative();
const count = z.number().int().nonnegative();
const ratio = z.number().nullable();
const share = z.number().min(0).max(1);
const latency = { count, p50: ms, p90: ms, p99: ms, p999: ms, max: ms, mean: ms };
const latencySchema = z.object(latency);
const baselines = <T extends z.ZodType>(v: T) => z.object({ piscinaEcho: v, spawnTrue: v, quickJsEval: v });
const stage = { queueMs: ms, transportMs: ms, runMs: ms };
const dispatchStages = z.object({ ...stage, foldMs: ms, totalMs: ms });
const buckets = z.array(z.object({ fromMs: ms, toMs: ms, count }));
const stageTotals = z.object({ ...stage, foldMs: ms });
const sessionSchema = z.object({
  sessions: count,
  toolCallsPerSession: ms,
  perSessionMs: ms,
  perToolCallMs: ms,
  coldExtraMs: ms,
  distribution: z.object({ toolCalls: idMap(count), source: z.string() }),
  rows: z.array(z.object({ label: z.string(), toolCalls: ms, totalMs: ms, stages: stageTotals })),
  note: z.string().optional(),
});
const isolationLevel = z.enum(HOOK_ISOLATIONS);

const resultSchema = z.object({
  schema: z.literal(BENCH_SCHEMA),
  hookwarden: z.object({ version: z.string(), commit: z.string().nullable(), dirty: z.boolean().nullable() }),
  config: z.array(z.string()),
  policy: z.array(z.string()),
  event: z.string(),
  hooks: z.array(
    z.object({
      id: z.string(),
      type: z.enum(CONFIGURED_HOOK_TYPES),
      scope: z.string(),
      isolation: isolationLevel,
      digest: z.string(),
      event: z.string().optional(),
      onError: z.enum(ON_ERROR_MODES).optional(),
      canDeny: z.boolean().optional(),
    }),
  ),
  input: z.object({
    digest: z.string(),
    value: z.record(z.string(), z.unknown()).optional(),
    varied: z.boolean(),
  }),
  iterations: z.number().int().positive(),
  concurrency: z.number().int().positive(),
  tenants: z.number().int().positive(),
  warmup: count,
  durationMs: ms,
  throughputPerSec: ms,
  overall: latencySchema,
  perHook: idMap(
    z.object({
      ...latency,
      type: z.enum(['command', 'js', 'http', 'prompt', 'agent', 'trusted']),
      queuedP50: ms,
      queuedP99: ms,
      notRun: count,
      errors: idMap(count),
      failures: z
        .object({
          timeouts: count,
          otherFailures: count,
          failedOpen: count,
          denied: count,
          securityFailures: count,
        })
        .optional(),
    }),
  ),
  perTenant: idMap(z.object({ ...latency, throughputPerSec: ms })).optional(),
  baselines: baselines(latencySchema),
  ratios: z.object({
    overall: z.object({
      vsPiscinaEcho: ratio,
      vsSpawnTrue: ratio,
      vsQuickJsEval: ratio,
      vsEchoPlusEval: ratio,
    }),
    perHook: idMap(
      z.object({
        vsSpawnTrue: ratio.optional(),
        vsQuickJsEval: ratio.optional(),
        vsEchoPlusEval: ratio.optional(),
      }),
    ),
  }),
  decisions: z.partialRecord(z.enum(VERDICTS), count),
  errors: idMap(count),
  histogram: buckets,
  blocks: z.array(
    z.object({
      atMs: ms,
      durationMs: ms,
      dispatches: count,
      overall: z.object({ p50: ms, p90: ms, p99: ms }),
      perHook: idMap(ms),
      perTenant: idMap(ms).optional(),
      perEvent: idMap(ms).optional(),
      baselines: baselines(ms),
      cpuWait: share.optional(),
    }),
  ),
  stages: z.object({
    overall: dispatchStages,
    perHook: idMap(z.object(stage)),
  }),
  perEvent: idMap(
    z.object({
      canonical: z.string(),
      perSession: ms,
      cold: z.object({ dispatchMs: ms, hookSetMs: ms }),
      dispatch: latencySchema,
      hookSet: latencySchema,
      hooksPerDispatch: ms,
      stages: dispatchStages,
      histogram: buckets,
    }),
  ).optional(),
  replay: z
    .object({
      source: z.string(),
      files: z.array(z.string()),
      sessions: count,
      events: count,
      passes: count,
    })
    .optional(),
  session: sessionSchema.optional(),
  isolation: z
    .array(
      z.object({
        level: z.string(),
        available: z.boolean(),
        detail: z.string(),
        fix: z.string().optional(),
        hooks: z.array(z.object({ id: z.string(), isolation: isolationLevel })).optional(),
        overall: latencySchema.optional(),
        perHook: idMap(latencySchema).optional(),
        stages: dispatchStages.optional(),
        vsFirst: ratio.optional(),
        session: sessionSchema.optional(),
      }),
    )
    .optional(),
  warnings: z.array(z.string()),
  machine: z.object({
    cpuModel: z.string(),
    cpus: count,
    totalMemoryBytes: count,
    node: z.string(),
    platform: z.string(),
    arch: z.string(),
    loadAverage: z.array(z.number()),
  }),
  conditions: z
    .object({
      windowMs: ms,
      cpuWait: share.nullable(),
      cpuPressure: share.nullable(),
      steal: share.nullable(),
      loadPerCpu: z.object({ start: ms, end: ms }),
    })
    .optional(),
  startedAt: z.string(),
});

/** Checks a parsed result; `label` names it in messages (a file path). */
export function parseBenchResult(raw: unknown, label: string): BenchResult {
  const schema = (raw as { schema?: unknown } | null)?.schema;
  // An older result (schema 1 had no `schema` field) or a newer one: say so, rather than list fields.
  const looksLikeResult = typeof raw === 'object' && raw !== null && !Array.isArray(raw) && 'overall' in raw;
  if (looksLikeResult && schema !== BENCH_SCHEMA) {
    throw new HookwardenError(
      'invalid_input',
      `${label}: a bench result of schema ${renderValue(schema ?? 1)}; this hookwarden reads schema ${BENCH_SCHEMA}: run \`hookwarden bench … --json\` again with it`,
    );
  }
  const parsed = resultSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String).join('.');
    let value: unknown = raw;
    for (const key of issue.path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
    throw new HookwardenError(
      'invalid_input',
      `${label}: not a bench result: ${path || '(top level)'}: ${issue.message}, got ${renderValue(value)}${parsed.error.issues.length > 1 ? ` (and ${parsed.error.issues.length - 1} more problems)` : ''}`,
    );
  }
  return parsed.data as BenchResult;
}

/** Reads and checks a result file written by `hookwarden bench --json`. */
export function readBenchResult(path: string): BenchResult {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > MAX_RESULT_BYTES)
      throw new HookwardenError(
        'invalid_input',
        `${path}: ${size} bytes, more than a bench result can be (${MAX_RESULT_BYTES})`,
      );
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof HookwardenError) throw err;
    throw new HookwardenError(
      'invalid_input',
      `${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new HookwardenError(
      'invalid_input',
      `${path}: not JSON (${(err as Error).message}); expected the output of \`hookwarden bench --json\``,
    );
  }
  return parseBenchResult(raw, path);
}
