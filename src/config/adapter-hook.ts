// Recognising a hook that runs a hookwarden adapter (what `claude-code install` and each agent's
// `install` write):
// the adapter refuses a config that would run itself, and `validate` does not judge such a hook's
// timeout (Claude Code runs it, not hookwarden). Dependency-free.
import { isObject } from '../contract/messages.js';
import { shellWords } from '../contract/shell-words.js';

/** The adapter commands (cli/claude-code/adapter-call.ts names the same). */
const ADAPTERS: ReadonlySet<string> = new Set(['claude-code', 'codex', 'gemini', 'cursor', 'copilot']);

/** The command line of a hook handler (Copilot CLI's `bash`, everyone else's `command`), if any. */
function handlerCommand(handler: Record<string, unknown>): string | undefined {
  if (typeof handler.command === 'string') return handler.command;
  return typeof handler.bash === 'string' ? handler.bash : undefined;
}

/** The words of a hook handler's command, in shell or exec form (empty: no command). */
export function handlerWords(handler: unknown): string[] {
  if (!isObject(handler)) return [];
  const command = handlerCommand(handler);
  if (command === undefined) return [];
  return Array.isArray(handler.args) && typeof handler.command === 'string'
    ? [handler.command, ...handler.args.filter((a): a is string => typeof a === 'string')]
    : shellWords(command);
}

/**
 * Whether a hook handler runs a hookwarden adapter (`hookwarden claude-code`, or codex, gemini,
 * cursor, copilot), in shell or exec form.
 */
export function runsAdapter(handler: unknown): boolean {
  const words = handlerWords(handler);
  const at = words.findIndex((w, i) => i > 0 && ADAPTERS.has(w));
  return at > 0 && words.slice(0, at).some((w) => /hookwarden/i.test(w));
}
