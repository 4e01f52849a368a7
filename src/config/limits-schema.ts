// The `limits` section's schema: every executor-wide limit with its bounds (config/defaults.ts).
import { z } from 'zod';
import { ISOLATION_LEVELS, LIMIT_BOUNDS } from './defaults.js';
import { posInt, wholeNumber } from './zod-fields.js';

/** Executor-wide limits (docs/configuration.md#limits). */
export const limitsSchema = z.object({
  maxHookCalls: posInt()
    .max(LIMIT_BOUNDS.maxHookCalls, { error: `expected at most ${LIMIT_BOUNDS.maxHookCalls}` })
    .optional()
    .meta({ description: 'Hooks run per dispatch at most. Default 128, max 4096.' }),
  maxDeclaredBudgetMs: posInt()
    .optional()
    .meta({ description: 'Clamp for declared budgets and timeouts. Default 600000.' }),
  maxConcurrentCommands: posInt()
    .max(LIMIT_BOUNDS.maxConcurrentCommands, {
      error: `expected at most ${LIMIT_BOUNDS.maxConcurrentCommands}`,
    })
    .optional()
    .meta({ description: 'Command hook processes running at once; the rest queue. Default 16.' }),
  maxInputBytes: posInt().optional().meta({ description: 'Largest HookInput JSON accepted. Default 8 MiB.' }),
  maxInputDepth: posInt()
    .max(LIMIT_BOUNDS.maxInputDepth, { error: `expected at most ${LIMIT_BOUNDS.maxInputDepth}` })
    .optional()
    .meta({
      description:
        'Deepest nesting of a HookInput (objects and arrays). A deeper input is invalid_input. Default 64, max 512.',
    }),
  killGraceMs: posInt()
    .max(LIMIT_BOUNDS.killGraceMs, { error: `expected at most ${LIMIT_BOUNDS.killGraceMs}` })
    .optional()
    .meta({ description: 'SIGTERM → SIGKILL grace for a command hook process group. Default 500.' }),
  jsThreads: z
    .number({ error: 'expected a whole number' })
    .int({ error: 'expected a whole number' })
    .min(0, { error: 'expected 0 (one per CPU) or more' })
    .max(LIMIT_BOUNDS.jsThreads, { error: `expected at most ${LIMIT_BOUNDS.jsThreads}` })
    .optional()
    .meta({ description: 'QuickJS worker threads; 0 = one per available CPU. Default 0.' }),
  jsHeapCeilingBytes: posInt()
    .min(32 * 1024 * 1024, { error: 'expected at least 33554432 (32 MiB)' })
    .max(LIMIT_BOUNDS.jsHeapCeilingBytes, { error: `expected at most ${LIMIT_BOUNDS.jsHeapCeilingBytes}` })
    .optional()
    .meta({ description: "Hard cap of each QuickJS worker's heap, in bytes. Default 134217728 (128 MiB)." }),
  maxWasmMemoryBytes: posInt()
    .min(65_536, { error: 'expected at least 65536 (one WebAssembly page)' })
    .max(LIMIT_BOUNDS.maxWasmMemoryBytes, { error: `expected at most ${LIMIT_BOUNDS.maxWasmMemoryBytes}` })
    .optional()
    .meta({
      description:
        "The largest memory cap (memoryBytes) a wasm hook may have, in bytes; a hook's own is clamped to it. A file lowers it for its hooks and less trusted ones. Default 268435456 (256 MiB).",
    }),
  minIsolation: z
    .union(
      [
        z.enum(ISOLATION_LEVELS),
        z.strictObject({
          policy: z.enum(ISOLATION_LEVELS).optional(),
          project: z.enum(ISOLATION_LEVELS).optional(),
          user: z.enum(ISOLATION_LEVELS).optional(),
        }),
      ],
      {
        error: `expected ${ISOLATION_LEVELS.map((l) => `"${l}"`).join(', ')} or {"policy"|"user"|"project": level}`,
      },
    )
    .optional()
    .meta({
      description:
        'Least isolation of command hooks: one level for every scope, or per scope ("process" < "contained" < "namespace"; "contained" is process mode that fails closed where the host cannot contain it). A hook asking for less runs at this level. Default "process".',
    }),
  jsBackstopGraceMs: posInt()
    .max(LIMIT_BOUNDS.jsBackstopGraceMs, { error: `expected at most ${LIMIT_BOUNDS.jsBackstopGraceMs}` })
    .optional()
    .meta({
      description:
        'A JS task overrunning its deadlines by this much has its worker terminated. Default 1000.',
    }),
  maxAsyncQueued: posInt()
    .max(LIMIT_BOUNDS.maxAsyncQueued, { error: `expected at most ${LIMIT_BOUNDS.maxAsyncQueued}` })
    .optional()
    .meta({
      description:
        'Async hooks of one tenant queued or running at once; past it a hook is recorded queue_full and not run. Default 1000. Policy files and the caller only.',
    }),
  fairShareIdleMs: wholeNumber()
    .max(LIMIT_BOUNDS.fairShareIdleMs, { error: `expected at most ${LIMIT_BOUNDS.fairShareIdleMs}` })
    .optional()
    .meta({
      description:
        "While several tenants have work, each keeps a fair share of the command and QuickJS lanes (its weighted share of the slots, no more than it recently used); a lone tenant uses the whole lane. A tenant's share outlives its last hook this long, in ms; 0 turns fair share off (rotation only). Default 1000. Policy files and the caller only.",
    }),
  tenantMaxQueued: wholeNumber()
    .max(LIMIT_BOUNDS.tenantMaxQueued, { error: `expected at most ${LIMIT_BOUNDS.tenantMaxQueued}` })
    .optional()
    .meta({
      description:
        "Hooks of one tenant waiting per lane when the tenant's limits set no maxQueued; past it a hook fails queue_full (serve: HTTP 429 with Retry-After). 0 = unbounded. Default 256. Policy files and the caller only.",
    }),
  tenantRatePerSec: posInt()
    .max(LIMIT_BOUNDS.tenantRatePerSec, { error: `expected at most ${LIMIT_BOUNDS.tenantRatePerSec}` })
    .optional()
    .meta({
      description:
        'Dispatches per second per tenant, across every replica in Redis mode; over it: rate_limited (HTTP 429). Default: no limit. Policy files and the caller only.',
    }),
  tenantRateBurst: wholeNumber()
    .max(LIMIT_BOUNDS.tenantRateBurst, { error: `expected at most ${LIMIT_BOUNDS.tenantRateBurst}` })
    .optional()
    .meta({
      description:
        'Dispatches allowed above tenantRatePerSec per 10 s burst window. Default 0. Policy files and the caller only.',
    }),
});
