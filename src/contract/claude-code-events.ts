// Every event of Claude Code's hooks reference and how it takes an answer (its hooks reference,
// "Exit code 2 behavior per event", "Decision control"): the table claude-code-answer.ts writes by,
// and the adapter's input reader, installer and client tables read. Dependency-free.

/** How one Claude Code event takes an answer (only what the event accepts is written). */
export interface ClaudeCodeProtocol {
  /**
   * How a deny reaches Claude Code: `permissionDecision` (hookSpecificOutput), `decision` (top-level
   * `decision: "block"`), `exit` (exit 2 alone), `behavior` (PermissionRequest's decision object).
   * Absent: the event cannot be blocked; a deny there (a mandatory hook failed) is a non-blocking error.
   */
  readonly deny?: 'permissionDecision' | 'decision' | 'exit' | 'behavior';
  /** Decisions besides deny written as `permissionDecision`. */
  readonly decisions?: readonly ('allow' | 'ask' | 'defer')[];
  /** `hookSpecificOutput.additionalContext` is taken. */
  readonly context?: boolean;
  /** `hookSpecificOutput.updatedInput` (PreToolUse). */
  readonly updatedInput?: boolean;
  /** `hookSpecificOutput.updatedToolOutput` (PostToolUse). */
  readonly toolOutput?: boolean;
  /** How "keep working" (continueWork) is said: `decision: "block"` or exit 2. */
  readonly keepWorking?: 'decision' | 'exit';
  /** Claude Code gives these events a CLAUDE_ENV_FILE: `sessionEnv` is written there. */
  readonly envFile?: boolean;
  /** Context goes as plain stdout (PreCompact: custom compaction instructions), not as JSON. */
  readonly plainContext?: boolean;
  /** Claude Code ignores the hook's output and exit code (Interrupt): nothing is written back. */
  readonly ignored?: boolean;
}

const BLOCK = { deny: 'decision' } as const;
const CONTEXT_BLOCK = { deny: 'decision', context: true } as const;

/** Every event of Claude Code's hooks reference and how it takes an answer. */
export const CLAUDE_CODE_EVENTS: Readonly<Record<string, ClaudeCodeProtocol>> = Object.freeze({
  SessionStart: { context: true, envFile: true },
  Setup: { context: true, envFile: true },
  InstructionsLoaded: {},
  UserPromptSubmit: CONTEXT_BLOCK,
  UserPromptExpansion: CONTEXT_BLOCK,
  MessageDisplay: {},
  PreToolUse: {
    deny: 'permissionDecision',
    decisions: ['allow', 'ask', 'defer'],
    context: true,
    updatedInput: true,
  },
  PermissionRequest: { deny: 'behavior' },
  PermissionDenied: {},
  PostToolUse: { context: true, toolOutput: true },
  PostToolUseFailure: { context: true },
  PostToolBatch: CONTEXT_BLOCK,
  Notification: {},
  SubagentStart: { context: true },
  SubagentStop: { keepWorking: 'decision' },
  TaskCreated: BLOCK,
  TaskCompleted: { deny: 'exit' },
  Stop: { keepWorking: 'decision' },
  StopFailure: {},
  Interrupt: { ignored: true },
  TeammateIdle: { keepWorking: 'exit' },
  ConfigChange: BLOCK,
  CwdChanged: { envFile: true },
  DirectoryAdded: {},
  FileChanged: { envFile: true },
  WorktreeCreate: { deny: 'exit' },
  WorktreeRemove: { deny: 'exit' },
  PreCompact: { deny: 'decision', plainContext: true },
  PostCompact: {},
  PreModelSwitch: { deny: 'permissionDecision', decisions: ['allow', 'ask'] },
  PostModelSwitch: { context: true },
  Elicitation: BLOCK,
  ElicitationResult: BLOCK,
  SessionEnd: {},
  PreSkillShellCommand: { deny: 'permissionDecision', decisions: ['allow'] },
});
