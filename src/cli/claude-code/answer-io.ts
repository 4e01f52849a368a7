// The Claude Code adapter's spec (adapter/spec.ts): it reads Claude Code's hook input (input.ts),
// answers in Claude Code's protocol (contract/claude-code-answer.ts) — failures fail closed where
// the event can block — and appends the session-env lines a result kept to the CLAUDE_ENV_FILE
// Claude Code gave it (env-file.ts). Dependency-free, for the fast path and the full one alike.
import { claudeCodeFailure, toClaudeCodeAnswer } from '../../contract/claude-code-answer.js';
import { DEFAULT_EVENTS, EventCatalogue } from '../../contract/events.js';
import type { AdapterSpec } from '../adapter/spec.js';
import { appendEnvFile } from './env-file.js';
import { checkClaudeCodeInput } from './input.js';

/** Whether a failure on `event` blocks (the built-in catalogue says the event can deny; unknown: yes). */
const canBlock = (event: string | undefined): boolean =>
  event === undefined || (new EventCatalogue(DEFAULT_EVENTS).get(event)?.canDeny ?? true);

export const CLAUDE_CODE_ADAPTER = Object.freeze<AdapterSpec>({
  command: 'claude-code',
  title: 'Claude Code',
  projectDirEnv: 'CLAUDE_PROJECT_DIR',
  extraFlags: [],
  read: (text: string) => {
    const { event, input } = checkClaudeCodeInput(text);
    return { event, dispatchEvent: event, input };
  },
  answer: (read, result) => toClaudeCodeAnswer(read.event, result),
  failure: (event, reason) => claudeCodeFailure(event, canBlock(event), reason),
  // The caller's CLAUDE_ENV_FILE (the daemon answers with its caller's environment).
  writeSessionEnv: (script, env) => appendEnvFile(env.CLAUDE_ENV_FILE, script),
});
