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
//
// The coding agents (docs/agents.md, with the versions read):
//
// | rule                          | codex             | gemini                    | cursor                 | copilot          |
// | ----------------------------- | ----------------- | ------------------------- | ---------------------- | ---------------- |
// | default timeout               | 600 s             | 60 s                      | 60 s (none documented) | 30 s             |
// | exit 0, stdout not JSON       | context on SessionStart, UserPromptSubmit, SubagentStart, else ignored | ignored | invalid_output | invalid_output |
// | non-zero exit (not 2)         | failure           | JSON read; exit ≥ 3 with text: a block | failure   | failure          |
// | a failure on BeforeTool       | onError           | onError                   | onError (failClosed: deny) | deny (Copilot denies a preToolUse hook that errs) |
// | silent on a permission event  | proceed           | proceed                   | failClosed: a failure  | proceed          |
// | BeforeCompact deny            | not honoured      | not honoured              | not honoured           | not honoured     |
// | host PATH/HOME (process mode) | yes               | yes                       | yes                    | yes              |

export const DIALECTS = [
  'hookwarden',
  'claude-code',
  'freecode',
  'codex',
  'gemini',
  'cursor',
  'copilot',
] as const;
export type Dialect = (typeof DIALECTS)[number];

export interface DialectRules {
  /** A command hook's timeout when it gives none (ms), and per-event exceptions (canonical names). */
  readonly defaultTimeoutMs: number;
  readonly eventTimeoutMs: Readonly<Record<string, number>>;
  /** Exit 0 with stdout that is not a JSON object: an error, context (or nothing), or nothing. */
  readonly plainStdout: 'invalid_output' | 'context' | 'ignore';
  /**
   * A command hook that crashed (non-zero exit other than 2, 126/127, killed): a failure, a block, or
   * Gemini's reading (a JSON answer on stdout counts whatever the exit code; text with exit ≥ 3 blocks).
   */
  readonly crash: 'failure' | 'block' | 'gemini';
  /** `plainStdout: "context"`: the events where plain text is context (default Claude Code's list). */
  readonly plainContextEvents?: ReadonlySet<string>;
  /**
   * Events whose hooks fail closed unless they say otherwise (Copilot denies a preToolUse hook that
   * errs); canonical names.
   */
  readonly failClosedEvents?: readonly string[];
  /**
   * A hook that answers nothing on an event that takes a permission is a failure when it fails
   * closed (Cursor's `failClosed`: "returned no output" blocks).
   */
  readonly silentGateFails?: boolean;
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
  codex: Object.freeze({
    defaultTimeoutMs: 600_000,
    eventTimeoutMs: Object.freeze({}),
    plainStdout: 'context',
    plainContextEvents: new Set(['SessionStart', 'BeforeTurn', 'BeforeSubagent']),
    crash: 'failure',
    compactVeto: false,
    hostEnv: true,
    toolInputEnv: false,
  }),
  gemini: Object.freeze({
    defaultTimeoutMs: 60_000,
    eventTimeoutMs: Object.freeze({}),
    plainStdout: 'ignore',
    crash: 'gemini',
    compactVeto: false,
    hostEnv: true,
    toolInputEnv: false,
  }),
  cursor: Object.freeze({
    defaultTimeoutMs: 60_000,
    eventTimeoutMs: Object.freeze({}),
    plainStdout: 'invalid_output',
    crash: 'failure',
    compactVeto: false,
    hostEnv: true,
    toolInputEnv: false,
    silentGateFails: true,
  }),
  copilot: Object.freeze({
    defaultTimeoutMs: 30_000,
    eventTimeoutMs: Object.freeze({}),
    // Copilot CLI denies a preToolUse hook that errs ("Denied by preToolUse hook (hook errored)"), and
    // its reference calls for a JSON answer or nothing: other text is an answer it cannot read.
    plainStdout: 'invalid_output',
    crash: 'failure',
    compactVeto: false,
    hostEnv: true,
    toolInputEnv: false,
    failClosedEvents: Object.freeze(['BeforeTool']),
  }),
});

/** A command hook's default timeout in `dialect` at `event` (canonical name). */
export function dialectTimeoutMs(dialect: Dialect, event: string): number {
  const rules = DIALECT_RULES[dialect];
  return Object.hasOwn(rules.eventTimeoutMs, event) ? rules.eventTimeoutMs[event]! : rules.defaultTimeoutMs;
}
