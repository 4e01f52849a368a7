// How a Claude Code hook runs the adapter, both ways: the command `install` writes (absolute paths,
// each quoted for the shell Claude Code runs it in) and the recognition of such a hook in a config
// file, so the adapter never runs itself: a config that routes through the adapter is refused.
// Dependency-free.
import { isObject } from '../../contract/messages.js';

/** One word for `sh -c`: single-quoted, so spaces, `$`, backquotes and quotes stay literal. */
export const shellQuote = (word: string): string =>
  /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;

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

/** The `--config` files named by the adapter hooks of a config file (empty: it routes nothing). */
export function adapterConfigs(file: Record<string, unknown>): { events: string[]; configs: string[] } {
  const events = new Set<string>();
  const configs = new Set<string>();
  const hooks = isObject(file.hooks) ? file.hooks : {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) continue;
      for (const h of group.hooks) {
        if (!runsAdapter(h)) continue;
        events.add(event);
        const words = Array.isArray((h as { args?: unknown }).args)
          ? ((h as { args: unknown[] }).args.filter((a) => typeof a === 'string') as string[])
          : shellWords((h as { command: string }).command);
        words.forEach((w, i) => {
          const next = words[i + 1];
          if ((w === '--config' || w === '-c' || w === '--user-config') && next !== undefined)
            configs.add(next);
          else if (w.startsWith('--config=')) configs.add(w.slice('--config='.length));
        });
      }
    }
  }
  return { events: [...events], configs: [...configs] };
}

/**
 * Why a config file cannot be the adapter's config: it routes events through the adapter itself
 * (its original hooks are elsewhere). Undefined when it does not.
 */
export function refusedRouting(path: string, file: Record<string, unknown>): string | undefined {
  const { events, configs } = adapterConfigs(file);
  if (events.length === 0) return undefined;
  const where = configs.length === 0 ? '' : ` (its adapter hooks read ${configs.join(', ')})`;
  return `${path} routes ${events.join(', ')} through \`hookwarden claude-code\`${where}: as the adapter's --config it would run the adapter again. Give --config the file with the original hooks (see \`hookwarden claude-code install --help\`)`;
}
