// HookInput: the zod schema (exported) that validates what a caller dispatches.
import { z } from 'zod';

/**
 * A name that hookwarden hands to command hooks in their environment (HOOK_TOOL_NAME,
 * HOOK_SESSION_ID) and keys `once` by: short, without control characters (a NUL cannot be in an
 * environment at all).
 */
const shortName = z
  .string()
  .min(1)
  .max(512, { error: 'expected at most 512 characters' })
  .regex(/^[^\u0000-\u001f\u007f]*$/, { error: 'expected no control characters' });

/** Schema of a dispatched event's input (docs/semantics.md). Extra fields pass through to hooks unchanged. */
export const hookInputSchema = z.looseObject({
  event: z.string().min(1),
  sessionId: shortName,
  cwd: z.string().min(1),
  timestamp: z.iso.datetime({ offset: true }),
  prompt: z.string().optional(),
  toolName: shortName.optional(),
  toolInput: z.record(z.string(), z.unknown()).optional(),
  toolResult: z.unknown().optional(),
  ok: z.boolean().optional(),
  error: z.unknown().optional(),
  reason: z.string().optional(),
  usage: z.unknown().optional(),
  cost: z.unknown().optional(),
  caller: z.object({ kind: z.enum(['main', 'subagent']), agentName: z.string().optional() }).optional(),
  request: z.unknown().optional(),
  response: z.unknown().optional(),
  compaction: z.object({ trigger: z.string().optional(), tokens: z.number().optional() }).optional(),
  subagentName: z.string().optional(),
  subagentResult: z.unknown().optional(),
});
