// `hookwarden claude-code --config <file>…`: the Claude Code adapter. Claude Code runs it as a hook:
// it reads ONE hook input on stdin (the event from `hook_event_name`), runs the matching hooks under
// hookwarden, and answers in Claude Code's protocol (claude-code-answer.ts). The adapter itself —
// start-up, the fast path, the daemon, failing closed — is every agent's (adapter/run-adapter.ts);
// what is Claude Code's is its spec (answer-io.ts) and the daemon hookwarden-client starts on demand.
import {
  checkRouting,
  identityOf,
  parseFlags as parseAgentFlags,
  runAdapter,
  unforwardable,
} from '../adapter/run-adapter.js';
import { UsageError } from '../usage-error.js';
import { CLAUDE_CODE_ADAPTER } from './answer-io.js';
import { startDaemonIfAsked } from './daemon/start.js';
import type { AdapterFlags } from './flags.js';

export { checkRouting, identityOf, unforwardable };

/**
 * Parses the flags; a problem is kept for the answer (the event, read from stdin, decides its exit
 * code). `env` and `cwd` are the caller's (the daemon parses for the process it answers).
 */
export const parseFlags = (
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd = process.cwd(),
): AdapterFlags | UsageError => parseAgentFlags(CLAUDE_CODE_ADAPTER, args, env, cwd);

export async function runClaudeCodeAdapter(args: readonly string[]): Promise<number> {
  const code = await runAdapter(CLAUDE_CODE_ADAPTER, args);
  // hookwarden-client found no daemon and ran this adapter instead: start one for its next call.
  if (!(parseFlags(args) instanceof UsageError)) await startDaemonIfAsked(args);
  return code;
}
