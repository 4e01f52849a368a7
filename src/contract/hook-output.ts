// HookOutput: the zod schema (exported) and the parser every hook answer goes through.
import { z } from 'zod';
import { isClaudeCodeOutput, mapClaudeCodeOutput } from './claude-code.js';
import { PlainJsonError, toPlainJson } from './plain-json.js';
import type { HookOutput } from './types.js';

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

const KNOWN = new Set(Object.keys(hookOutputSchema.shape));

export type ParsedOutput =
  | { ok: true; output: HookOutput | undefined; unknownFields: string[] }
  | { ok: false; message: string };

/**
 * Validates a hook's raw answer for `event` (canonical name). Accepts hookwarden's shape and Claude
 * Code's; `undefined`/`null` mean "proceed". The returned output is made of null-prototype objects.
 */
export function parseHookOutput(raw: unknown, event: string): ParsedOutput {
  if (raw === undefined || raw === null) return { ok: true, output: undefined, unknownFields: [] };
  let plain: unknown;
  try {
    plain = toPlainJson(raw);
  } catch (err) {
    if (err instanceof PlainJsonError || err instanceof RangeError)
      return { ok: false, message: err.message };
    throw err;
  }
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    return {
      ok: false,
      message: `expected a JSON object, got ${Array.isArray(plain) ? 'an array' : typeof plain}`,
    };
  }
  let obj = plain as Record<string, unknown>;
  const unknownFields: string[] = [];
  if (isClaudeCodeOutput(obj)) {
    const { mapped, ignored } = mapClaudeCodeOutput(obj, event);
    obj = mapped;
    unknownFields.push(...ignored);
  }
  const known: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(obj)) {
    if (KNOWN.has(key)) known[key] = obj[key];
    else unknownFields.push(key);
  }
  const parsed = hookOutputSchema.safeParse(known);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? 'output' : issue.path.join('.');
    return { ok: false, message: `${where}: ${issue?.message ?? 'invalid'}` };
  }
  // zod only checks: the values kept are the null-prototype copies (zod would rebuild plain objects).
  const output: HookOutput = Object.create(null);
  for (const key of Object.keys(known)) {
    if (known[key] !== undefined) (output as Record<string, unknown>)[key] = known[key];
  }
  return { ok: true, output, unknownFields };
}
