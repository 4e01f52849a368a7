// How a Claude Code hook runs the adapter, both ways: the command `install` writes (absolute paths,
// each quoted for the shell Claude Code runs it in) and the recognition of such a hook in a config
// file, so the adapter never runs itself: a config that routes through the adapter is refused.
// Dependency-free.
import { runsAdapter, shellWords } from '../../config/adapter-hook.js';
import { isObject } from '../../contract/messages.js';
import { shellQuote } from '../../contract/shell-quote.js';

export { runsAdapter, shellQuote, shellWords };

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
