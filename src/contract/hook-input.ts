// HookInput: the zod schema (exported) that validates what a caller dispatches.
import { z } from 'zod';

/** Schema of a dispatched event's input (DESIGN §2). Extra fields pass through to hooks unchanged. */
export const hookInputSchema = z.looseObject({
  event: z.string().min(1),
  sessionId: z.string().min(1),
  cwd: z.string().min(1),
  timestamp: z.iso.datetime({ offset: true }),
  prompt: z.string().optional(),
  toolName: z.string().optional(),
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
