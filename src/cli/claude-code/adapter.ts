// `hookwarden claude-code --config <file>…`: the Claude Code adapter. Claude Code runs it as a hook:
// it reads ONE hook input on stdin (the event from `hook_event_name`), runs the matching hooks under
// hookwarden, and answers in Claude Code's protocol (claude-code-answer.ts). The adapter itself —
// start-up, the fast path, the daemon, failing closed — is every agent's (adapter/run-adapter.ts);
// what is Claude Code's is its spec (answer-io.ts).
import { runAdapterCommand } from '../adapter/run-adapter.js';
import { CLAUDE_CODE_ADAPTER } from './answer-io.js';

/** `hookwarden claude-code …`: answers, then starts the daemon hookwarden-client asked for. */
export const runClaudeCodeAdapter = (args: readonly string[]): Promise<number> =>
  runAdapterCommand(CLAUDE_CODE_ADAPTER, args);
