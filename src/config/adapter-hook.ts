// Recognising a hook that runs `hookwarden claude-code` (the adapter `claude-code install` writes):
// the adapter refuses a config that would run itself, and `validate` does not judge such a hook's
// timeout (Claude Code runs it, not hookwarden). Dependency-free.
import { isObject } from '../contract/messages.js';

/** The words of a shell command line, quotes removed (enough to recognise a command, not a shell). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      word += end < 0 ? line.slice(i + 1) : line.slice(i + 1, end);
      inWord = true;
      i = end < 0 ? line.length : end;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** Whether a hook handler runs `hookwarden claude-code` (the adapter), in shell or exec form. */
export function runsAdapter(handler: unknown): boolean {
  if (!isObject(handler) || typeof handler.command !== 'string') return false;
  const words = Array.isArray(handler.args)
    ? [handler.command, ...handler.args.filter((a): a is string => typeof a === 'string')]
    : shellWords(handler.command);
  const at = words.indexOf('claude-code');
  return at > 0 && words.slice(0, at).some((w) => /hookwarden/i.test(w));
}
