// The one list of each answer vocabulary: a hook's decisions, the dispatch verdicts, the per-hook
// outcomes, and what a hook's failure means (`onError`). Types, zod schemas, the output parser, fixture files, the HTTP API's schemas and the
// docs tests all derive from these arrays, so a new value is added once. Dependency-free.

/** What a hook may decide (`defer`: Claude Code's, honoured on BeforeTool only). */
export const DECISIONS = ['allow', 'deny', 'ask', 'defer'] as const;

/** A dispatch's verdict: a decision, or `passthrough` (nobody decided, distinct from `allow`). */
export const VERDICTS = [...DECISIONS, 'passthrough'] as const;

/** A hook's outcome in a DispatchResult record (`queued`: an async hook handed to the queue). */
export const OUTCOMES = [...DECISIONS, 'proceed', 'error', 'timeout', 'limit', 'not-run', 'queued'] as const;

/** What a hook's failure means: `skip` (fail-open, the default) or `deny` (fail-closed). */
export const ON_ERROR_MODES = ['skip', 'deny'] as const;

export type OnError = (typeof ON_ERROR_MODES)[number];

/** How strict a decision (or a Claude Code "block") is: one answer's fields never loosen each other. */
const STRICTNESS: Readonly<Record<string, number>> = {
  deny: 3,
  block: 3,
  ask: 2,
  defer: 2,
  allow: 1,
  approve: 1,
};

/**
 * Sets `mapped.decision` to `value` unless it already holds a stricter one (an answer saying both
 * `permissionDecision: "deny"` and `decision: "allow"` denies). A value that is no decision is kept,
 * and kept over any later one, for the schema to refuse.
 */
export function tighten(mapped: Record<string, unknown>, value: unknown): void {
  if (mapped.decision === undefined) {
    mapped.decision = value;
    return;
  }
  const now = STRICTNESS[String(mapped.decision)];
  const next = STRICTNESS[String(value)];
  // A value that is no decision stays, so the whole answer is refused (never a later allow).
  if (now !== undefined && next !== undefined && next > now) mapped.decision = value;
}

/** `"a", "b" or "c"`: a list of values as messages name them. */
export const quotedList = (values: readonly string[], last = 'or'): string =>
  values.length <= 1
    ? values.map((v) => `"${v}"`).join('')
    : `${values
        .slice(0, -1)
        .map((v) => `"${v}"`)
        .join(', ')} ${last} "${values[values.length - 1]}"`;
