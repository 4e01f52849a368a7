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

/** `"a", "b" or "c"`: a list of values as messages name them. */
export const quotedList = (values: readonly string[], last = 'or'): string =>
  values.length <= 1
    ? values.map((v) => `"${v}"`).join('')
    : `${values
        .slice(0, -1)
        .map((v) => `"${v}"`)
        .join(', ')} ${last} "${values[values.length - 1]}"`;
