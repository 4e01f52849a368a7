// How a Claude Code hook runs the adapter, both ways: the command `install` writes (absolute paths,
// each quoted for the shell Claude Code runs it in) and the recognition of such a hook in a config
// file, so the adapter never runs itself: a config that routes through the adapter is refused.
// Dependency-free.
import { handlerWords, runsAdapter } from '../../config/adapter-hook.js';
import { isObject } from '../../contract/messages.js';
import { shellQuote } from '../../contract/shell-quote.js';
import { shellWords } from '../../contract/shell-words.js';
import { ADAPTER_COMMANDS } from './adapter-call.js';

export { runsAdapter, shellQuote, shellWords };

/** The `--config` files named by the adapter hooks of a config file (empty: it routes nothing). */
function adapterConfigs(file: Record<string, unknown>): {
  events: string[];
  configs: string[];
  /** The adapter commands the hooks run (`claude-code`, `cursor`, …). */
  adapters: string[];
} {
  const events = new Set<string>();
  const configs = new Set<string>();
  const adapters = new Set<string>();
  const hooks = isObject(file.hooks) ? file.hooks : {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      if (!isObject(group)) continue;
      // Nested groups (Claude Code, Codex, Gemini CLI) or flat entries (Cursor, Copilot CLI).
      for (const h of Array.isArray(group.hooks) ? group.hooks : [group]) {
        if (!runsAdapter(h)) continue;
        events.add(event);
        const words = handlerWords(h);
        const command = words.find((w, i) => i > 0 && ADAPTER_COMMANDS.includes(w));
        if (command !== undefined) adapters.add(command);
        words.forEach((w, i) => {
          const next = words[i + 1];
          if ((w === '--config' || w === '-c' || w === '--user-config') && next !== undefined)
            configs.add(next);
          else if (w.startsWith('--config=')) configs.add(w.slice('--config='.length));
        });
      }
    }
  }
  return { events: [...events], configs: [...configs], adapters: [...adapters] };
}

/**
 * Why a config file cannot be the adapter's config: it routes events through the adapter itself
 * (its original hooks are elsewhere). Undefined when it does not.
 */
export function refusedRouting(path: string, file: Record<string, unknown>): string | undefined {
  const { events, configs, adapters } = adapterConfigs(file);
  if (events.length === 0) return undefined;
  const where = configs.length === 0 ? '' : ` (its adapter hooks read ${configs.join(', ')})`;
  const through = adapters.map((a) => `\`hookwarden ${a}\``).join(', ');
  return `${path} routes ${events.join(', ')} through ${through}${where}: as the adapter's --config it would run the adapter again. Give --config the file with the original hooks (see \`hookwarden ${adapters[0] ?? 'claude-code'} install --help\`)`;
}
