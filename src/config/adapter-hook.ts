// Recognising a hook that runs `hookwarden claude-code` (the adapter `claude-code install` writes):
// the adapter refuses a config that would run itself, and `validate` does not judge such a hook's
// timeout (Claude Code runs it, not hookwarden). Dependency-free.
import { isObject } from '../contract/messages.js';
import { shellWords } from '../contract/shell-words.js';

/** Whether a hook handler runs `hookwarden claude-code` (the adapter), in shell or exec form. */
export function runsAdapter(handler: unknown): boolean {
  if (!isObject(handler) || typeof handler.command !== 'string') return false;
  const words = Array.isArray(handler.args)
    ? [handler.command, ...handler.args.filter((a): a is string => typeof a === 'string')]
    : shellWords(handler.command);
  const at = words.indexOf('claude-code');
  return at > 0 && words.slice(0, at).some((w) => /hookwarden/i.test(w));
}
