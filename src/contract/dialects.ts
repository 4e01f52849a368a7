// Dialects (docs/claude-code.md#dialects): whose protocol a config file's hooks speak where the hook systems
// differ. The fold is one pure function; a dialect only says how a hook's answer or failure maps into it.
// Dependency-free: the QuickJS worker reads the same table when it parses a JS hook's answer.
//
// | rule                         | hookwarden        | claude-code                         | freecode              |
// | ---------------------------- | ----------------- | ----------------------------------- | --------------------- |
// | default timeout              | 60 s (JS 5 s)     | 600 s; 30 s UserPromptSubmit, Pre/PostModelSwitch; 10 s MessageDisplay | 300 s |
// | exit 0, stdout not JSON      | invalid_output    | context where Claude Code adds it, else ignored | ignored  |
// | non-zero exit (not 2), 126/127 | failure (onError) | failure (onError)                 | a block (fail closed) |
// | timeout, spawn failure       | failure (onError) | failure (onError)                   | failure (fail open)   |
// | BeforeCompact deny           | not honoured      | honoured (PreCompact block)         | honoured              |
// | host PATH/HOME (process mode) | no               | yes, unless policy says no          | no                    |
// | $CLAUDE_TOOL_INPUT           | no                | no (Claude Code never sets it)      | yes                   |

export const DIALECTS = ['hookwarden', 'claude-code', 'freecode'] as const;
export type Dialect = (typeof DIALECTS)[number];

export interface DialectRules {
  /** A command hook's timeout when it gives none (ms), and per-event exceptions (canonical names). */
  readonly defaultTimeoutMs: number;
  readonly eventTimeoutMs: Readonly<Record<string, number>>;
  /** Exit 0 with stdout that is not a JSON object: an error, context (or nothing), or nothing. */
  readonly plainStdout: 'invalid_output' | 'context' | 'ignore';
  /** A command hook that crashed (non-zero exit other than 2, 126/127, killed): a failure or a block. */
  readonly crash: 'failure' | 'block';
  /** Whether a deny from this dialect's hooks stops a compaction (BeforeCompact). */
  readonly compactVeto: boolean;
  /** Process-mode command hooks get the host's PATH, HOME and locale (the secret filter applies). */
  readonly hostEnv: boolean;
  /** `$CLAUDE_TOOL_INPUT` (the tool input as JSON) in a command hook's environment. */
  readonly toolInputEnv: boolean;
}

/**
 * Events where Claude Code adds a hook's plain-text stdout to the model's context (PreCompact: to the
 * compaction's instructions).
 */
export const PLAIN_TEXT_CONTEXT_EVENTS: ReadonlySet<string> = new Set([
  'SessionStart',
  'BeforeTurn',
  'UserPromptExpansion',
  'PostModelSwitch',
  'BeforeCompact',
]);

export const DIALECT_RULES: Readonly<Record<Dialect, DialectRules>> = Object.freeze({
  hookwarden: Object.freeze({
    defaultTimeoutMs: 60_000,
    eventTimeoutMs: Object.freeze({}),
    plainStdout: 'invalid_output',
    crash: 'failure',
    compactVeto: false,
    hostEnv: false,
    toolInputEnv: false,
  }),
  'claude-code': Object.freeze({
    defaultTimeoutMs: 600_000,
    eventTimeoutMs: Object.freeze({
      BeforeTurn: 30_000,
      PreModelSwitch: 30_000,
      PostModelSwitch: 30_000,
      MessageDisplay: 10_000,
    }),
    plainStdout: 'context',
    crash: 'failure',
    compactVeto: true,
    hostEnv: true,
    toolInputEnv: false,
  }),
  freecode: Object.freeze({
    defaultTimeoutMs: 300_000,
    eventTimeoutMs: Object.freeze({}),
    plainStdout: 'ignore',
    crash: 'block',
    compactVeto: true,
    hostEnv: false,
    toolInputEnv: true,
  }),
});

/** A command hook's default timeout in `dialect` at `event` (canonical name). */
export function dialectTimeoutMs(dialect: Dialect, event: string): number {
  const rules = DIALECT_RULES[dialect];
  return Object.hasOwn(rules.eventTimeoutMs, event) ? rules.eventTimeoutMs[event]! : rules.defaultTimeoutMs;
}
