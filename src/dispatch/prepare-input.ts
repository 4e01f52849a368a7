// Validates the caller's input once, at the boundary: fills in the defaults (`sessionId`, `cwd`,
// `timestamp`), applies the event's canonical name and alias-implied fields (PostToolUseFailure →
// ok: false), and names the field and the value in every problem.

import type { z } from 'zod';
import { hookInputSchema } from '../contract/hook-input.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { renderValue } from '../contract/messages.js';
import type { HookInput } from '../contract/types.js';

/** `sessionId` of a dispatch whose input has none (the library's; the CLI passes `cli`). */
const DEFAULT_SESSION_ID = 'default';

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  record: 'an object',
  array: 'an array',
};

/** One problem as `input.<path>: <what was expected>, got <value>`. */
function describeIssue(issue: z.core.$ZodIssue, candidate: unknown): string {
  const value = issue.path.reduce<unknown>(
    (v, k) => (v !== null && typeof v === 'object' ? (v as never)[k] : undefined),
    candidate,
  );
  const field = issue.path.length === 0 ? 'input' : `input.${issue.path.join('.')}`;
  let expected: string;
  if (issue.code === 'invalid_type') {
    expected = `expected ${EXPECTED[issue.expected] ?? issue.expected}`;
  } else if (issue.code === 'invalid_value') {
    expected = `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  } else if (issue.code === 'invalid_format' && issue.format === 'datetime') {
    expected = 'expected an ISO 8601 date-time, e.g. "2026-11-29T12:00:00Z"';
  } else if (issue.code === 'too_small' && issue.origin === 'string') {
    expected = 'expected a non-empty string';
  } else {
    expected = issue.message;
  }
  return value === undefined
    ? `${field}: missing, ${expected}`
    : `${field}: ${expected}, got ${renderValue(value)}`;
}

/**
 * The validated HookInput of a dispatch. `sessionId` defaults to `"default"`, `cwd` to `root` (the
 * executor's sandbox root) and `timestamp` to now; a field that is present must be valid.
 */
export function prepareInput(
  event: string,
  aliasInput: { ok: boolean } | undefined,
  raw: unknown,
  root: string,
): HookInput {
  const given = raw as Partial<HookInput>;
  const candidate = {
    ...(raw as object),
    event,
    sessionId: given.sessionId === undefined ? DEFAULT_SESSION_ID : given.sessionId,
    cwd: given.cwd === undefined ? root : given.cwd,
    timestamp: given.timestamp === undefined ? new Date().toISOString() : given.timestamp,
    ...(aliasInput ?? {}),
  };
  const parsed = hookInputSchema.safeParse(candidate);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => describeIssue(issue, candidate));
    throw new HookwardenError('invalid_input', `invalid hook input: ${problems.join('; ')}`, { problems });
  }
  // The input as given, not zod's copy: a copy assigns each key, and a `__proto__` key assigned to
  // an object sets its prototype instead (the key would vanish from what hooks see). The schema has
  // no transforms or defaults, so a valid candidate is its own parsed value.
  return candidate as HookInput;
}
