// The documented `--json` schema of `hookwarden bench` (docs/bench.md, "The result: --json"), strict:
// a field the docs do not name fails the tests that parse real output with it.
import { z } from 'zod';

const num = z.number().nonnegative();
const ratio = z.number().positive().nullable();
const latency = {
  count: z.number().int().nonnegative(),
  p50: num,
  p90: num,
  p99: num,
  p999: num,
  max: num,
  mean: num,
};
const latencySchema = z.strictObject(latency);

const digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const count = z.number().int().nonnegative();
const stage = { queueMs: num, transportMs: num, runMs: num };
const dispatchStages = z.strictObject({ ...stage, foldMs: num, totalMs: num });
const sessionSchema = z.strictObject({
  sessions: count,
  toolCallsPerSession: num,
  perSessionMs: num,
  perToolCallMs: num,
  coldExtraMs: num,
  distribution: z.strictObject({ toolCalls: z.record(z.string(), count), source: z.string() }),
  rows: z.array(
    z.strictObject({
      label: z.string(),
      toolCalls: num,
      totalMs: num,
      stages: z.strictObject({ ...stage, foldMs: num }),
    }),
  ),
  note: z.string().optional(),
});

const share = z.number().min(0).max(1);

/** The documented `--json` schema (docs/bench.md, "The result: --json"). */
export const benchJsonSchema = z.strictObject({
  schema: z.literal(2),
  hookwarden: z.strictObject({
    version: z.string(),
    commit: z
      .string()
      .regex(/^[0-9a-f]{40}$/)
      .nullable(),
    dirty: z.boolean().nullable(),
  }),
  config: z.array(z.string()),
  policy: z.array(z.string()),
  event: z.string(),
  hooks: z.array(
    z.strictObject({
      id: z.string(),
      type: z.enum(['command', 'js']),
      scope: z.enum(['policy', 'project', 'user']),
      isolation: z.enum(['process', 'contained', 'namespace', 'quickjs']),
      digest,
      event: z.string(),
      onError: z.enum(['skip', 'deny']),
      canDeny: z.boolean(),
    }),
  ),
  input: z.strictObject({ digest, value: z.record(z.string(), z.unknown()).optional(), varied: z.boolean() }),
  iterations: z.number().int().positive(),
  concurrency: z.number().int().positive(),
  tenants: z.number().int().positive(),
  warmup: z.number().int().nonnegative(),
  durationMs: num,
  throughputPerSec: num,
  overall: latencySchema,
  perHook: z.record(
    z.string(),
    z.strictObject({
      ...latency,
      type: z.enum(['command', 'js', 'trusted']),
      queuedP50: num,
      queuedP99: num,
      notRun: z.number().int().nonnegative(),
      errors: z.record(z.string(), z.number().int().positive()),
      failures: z.strictObject({
        timeouts: count,
        otherFailures: count,
        failedOpen: count,
        denied: count,
        securityFailures: count,
      }),
    }),
  ),
  perTenant: z.record(z.string(), z.strictObject({ ...latency, throughputPerSec: num })).optional(),
  baselines: z.strictObject({
    piscinaEcho: latencySchema,
    spawnTrue: latencySchema,
    quickJsEval: latencySchema,
  }),
  ratios: z.strictObject({
    overall: z.strictObject({
      vsPiscinaEcho: ratio,
      vsSpawnTrue: ratio,
      vsQuickJsEval: ratio,
      vsEchoPlusEval: ratio,
    }),
    perHook: z.record(
      z.string(),
      z.strictObject({
        vsSpawnTrue: ratio.optional(),
        vsQuickJsEval: ratio.optional(),
        vsEchoPlusEval: ratio.optional(),
      }),
    ),
  }),
  decisions: z.partialRecord(z.enum(['allow', 'deny', 'ask', 'passthrough']), z.number().int().positive()),
  errors: z.record(z.string(), z.number().int().positive()),
  histogram: z.array(z.strictObject({ fromMs: num, toMs: num, count: z.number().int().positive() })),
  blocks: z.array(
    z.strictObject({
      atMs: num,
      durationMs: num,
      dispatches: z.number().int().nonnegative(),
      overall: z.strictObject({ p50: num, p90: num, p99: num }),
      perHook: z.record(z.string(), num),
      perTenant: z.record(z.string(), num).optional(),
      perEvent: z.record(z.string(), num),
      baselines: z.strictObject({ piscinaEcho: num, spawnTrue: num, quickJsEval: num }),
      cpuWait: share.optional(),
    }),
  ),
  stages: z.strictObject({
    overall: dispatchStages,
    perHook: z.record(z.string(), z.strictObject(stage)),
  }),
  perEvent: z.record(
    z.string(),
    z.strictObject({
      canonical: z.string(),
      perSession: num,
      cold: z.strictObject({ dispatchMs: num, hookSetMs: num }),
      dispatch: latencySchema,
      hookSet: latencySchema,
      hooksPerDispatch: num,
      stages: dispatchStages,
      histogram: z.array(z.strictObject({ fromMs: num, toMs: num, count: z.number().int().positive() })),
    }),
  ),
  replay: z
    .strictObject({
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
      z.strictObject({
        level: z.string(),
        available: z.boolean(),
        detail: z.string(),
        fix: z.string().optional(),
        hooks: z
          .array(
            z.strictObject({
              id: z.string(),
              isolation: z.enum(['process', 'contained', 'namespace', 'quickjs']),
            }),
          )
          .optional(),
        overall: latencySchema.optional(),
        perHook: z.record(z.string(), latencySchema).optional(),
        stages: dispatchStages.optional(),
        vsFirst: ratio.optional(),
        session: sessionSchema.optional(),
      }),
    )
    .optional(),
  warnings: z.array(z.string()),
  machine: z.strictObject({
    cpuModel: z.string(),
    cpus: z.number().int().positive(),
    totalMemoryBytes: z.number().int().positive(),
    node: z.string().startsWith('v'),
    platform: z.string(),
    arch: z.string(),
    loadAverage: z.array(num).length(3),
  }),
  conditions: z.strictObject({
    windowMs: num,
    cpuWait: share.nullable(),
    cpuPressure: share.nullable(),
    steal: share.nullable(),
    loadPerCpu: z.strictObject({ start: num, end: num }),
  }),
  startedAt: z.iso.datetime(),
});
