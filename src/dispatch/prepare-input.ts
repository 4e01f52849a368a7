// Validates the caller's input once, at the boundary, and applies the event's canonical name and
// alias-implied fields (PostToolUseFailure → ok: false).

import { renderValue } from '../config/diagnostics.js';
import { hookInputSchema } from '../contract/hook-input.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import type { HookInput } from '../contract/types.js';

export function prepareInput(event: string, aliasInput: { ok: false } | undefined, raw: unknown): HookInput {
  const candidate = { ...(raw as object), event, ...(aliasInput ?? {}) };
  const parsed = hookInputSchema.safeParse(candidate);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const value = issue.path.reduce<unknown>(
        (v, k) => (v !== null && typeof v === 'object' ? (v as never)[k] : undefined),
        candidate,
      );
      return `input.${issue.path.join('.')}: ${issue.message}, got ${renderValue(value)}`;
    });
    throw new HookwardenError('invalid_input', `invalid hook input: ${problems.join('; ')}`, { problems });
  }
  return parsed.data as HookInput;
}
