// zod schemas of what the HTTP API sends and receives: the source of the OpenAPI document
// (openapi.ts) and, in the tests, the check that every answer has the documented shape. The
// dispatch body is the library's HookInput schema with the fields dispatch() fills in made optional.
import { z } from 'zod';
import { CONTAINMENTS } from '../contract/command-task.js';
import { OUTCOMES, VERDICTS } from '../contract/decisions.js';
import { ERROR_CODES } from '../contract/error-codes.js';
import { hookInputSchema } from '../contract/hook-input.js';
import { hookOutputSchema } from '../contract/hook-output.js';
import { SCOPES } from '../contract/scopes.js';
import { HOOK_TYPES } from '../contract/types.js';
import { API_ERROR_CODES } from './errors.js';

/** The body of POST /v1/dispatch/{event}: a HookInput, camelCase or Claude Code's snake_case. */
export const dispatchBodySchema = hookInputSchema
  .partial({ event: true, sessionId: true, cwd: true, timestamp: true })
  .meta({
    description:
      'A HookInput (camelCase, or Claude Code\'s snake_case names such as session_id, tool_name, tool_input). `event` is ignored (the path names it); `sessionId`, `cwd` and `timestamp` default to "default", the sandbox root and now. Extra fields reach the hooks unchanged. A `tenant` field is data for the hooks: the token decides the tenant.',
  });

const hookRecordSchema = z.object({
  id: z.string(),
  type: z.enum(HOOK_TYPES),
  scope: z.enum(SCOPES),
  outcome: z.enum(OUTCOMES),
  latencyMs: z.number(),
  queuedMs: z.number(),
  error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }).optional(),
  ignoredFields: z.array(z.string()).optional(),
  warnings: z
    .array(z.string())
    .optional()
    .meta({ description: 'What of the answer was not applied, and why (e.g. the session-env rule).' }),
  logs: z.array(z.string()).optional(),
  memoryBytes: z.number().optional(),
  recheck: z.literal(true).optional(),
  asyncId: z.string().optional().meta({ description: 'An async hook: the id of its background run.' }),
  containment: z
    .enum(CONTAINMENTS)
    .optional()
    .meta({ description: 'A command hook: the containment it actually got (docs/security.md).' }),
  uncontainedReason: z.string().optional(),
  clampedLimits: z
    .record(z.string(), z.number())
    .optional()
    .meta({ description: "Rlimits lowered to the host's hard limits: the value that applied." }),
  processCap: z
    .object({
      mechanism: z.enum(['pids-cgroup', 'pid-namespace', 'rlimit-nproc', 'none']),
      max: z.number().optional(),
    })
    .optional()
    .meta({ description: 'A command hook: the cap on its processes and threads (docs/security.md).' }),
  landlock: z.number().optional().meta({ description: 'A command hook: the Landlock ABI it ran under.' }),
  knobs: z
    .array(z.string())
    .optional()
    .meta({ description: "A command hook: hookwarden's sandbox knobs set in the environment." }),
  retried: z
    .object({ code: z.enum(ERROR_CODES), message: z.string() })
    .optional()
    .meta({ description: 'The machinery was lost under the hook: how its first run ended (it ran again).' }),
});

export const dispatchResultSchema = z
  .object({
    event: z.string().meta({ description: 'The canonical event name (aliases resolved).' }),
    decision: z.enum(VERDICTS),
    reason: z.string().optional(),
    decidedBy: z.string().optional(),
    interrupted: z.literal(true).optional(),
    // The folded mutations: the fields of a hook's answer besides its decision and reason.
    ...hookOutputSchema.omit({ decision: true, reason: true }).shape,
    warnings: z
      .array(z.string())
      .optional()
      .meta({ description: 'Problems that did not change the verdict, e.g. an audit record not written.' }),
    hooks: z.array(hookRecordSchema),
  })
  .meta({ description: 'The folded verdict. The verdict is in `decision`, never in the HTTP status.' });

export const errorBodySchema = z.object({
  error: z.object({ code: z.enum(API_ERROR_CODES), message: z.string() }),
});

/** 429: a hook of the dispatch was refused `queue_full`; the partial result is included. */
export const queueFullBodySchema = errorBodySchema.extend({ result: dispatchResultSchema });

const diagnosticSchema = z.object({
  severity: z.enum(['error', 'warning']),
  file: z.string(),
  path: z.string(),
  message: z.string(),
  skipped: z.boolean(),
});

export const reloadResultSchema = z.object({
  ok: z.boolean(),
  generation: z.number().int(),
  reason: z.string().optional(),
  diagnostics: z.array(diagnosticSchema),
  auth: z
    .object({ ok: z.boolean(), tokens: z.number().int().optional(), reason: z.string().optional() })
    .optional()
    .meta({ description: 'The auth file, read again (with --auth): refused → the tokens in force stay.' }),
});

export const eventCatalogueSchema = z.object({
  events: z.array(
    z.object({
      name: z.string(),
      mode: z.enum(['serial', 'parallel']),
      canDeny: z.boolean(),
      honours: z.array(z.string()),
      toolScoped: z.boolean(),
    }),
  ),
  aliases: z.record(z.string(), z.string()).meta({ description: 'Other names accepted in the path.' }),
});

export const healthSchema = z.object({ status: z.enum(['ok', 'ready']) });
