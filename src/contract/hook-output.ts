// HookOutput's zod schema, exported for users (and to generate documentation). Every answer goes
// through parseHookOutput (parse-output.ts), a dependency-free parser of the same shape.
import { z } from 'zod';

/** Schema of a hook's answer (DESIGN §2). Unknown keys are not errors: they are listed as ignored. */
export const hookOutputSchema = z.object({
  decision: z.enum(['allow', 'deny', 'ask']).optional(),
  reason: z.string().optional(),
  additionalContext: z.string().optional(),
  mutatedPrompt: z.string().optional(),
  modelOverride: z.string().optional(),
  mutatedToolInput: z.record(z.string(), z.unknown()).optional(),
  updatedToolOutput: z.unknown().optional(),
  mutatedRequest: z.unknown().optional(),
  mutatedText: z.string().optional(),
  continueWork: z.object({ reason: z.string() }).optional(),
});
