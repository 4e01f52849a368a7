// `hookwarden claude-code install <file>`: turns a Claude Code hooks file (settings.json, a plugin's
// hooks.json or plugin.json) into a sandboxed setup, with every agent's installer (adapter/
// install-core.ts): the handlers the adapter runs move to a hooks copy (`<name>.hookwarden.json` next
// to the file, or at a plugin's root; Claude Code never reads it); each event that had them gets one
// adapter hook instead, whose matcher matches whenever one of theirs did and whose timeout covers
// them all. What is Claude Code's: which handlers stay with it (install-plan.ts), the shape of its
// adapter group, and where a plugin's copy goes.

import { existsSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { CLAUDE_CODE_EVENTS } from '../../contract/claude-code-events.js';
import { DEFAULT_EVENTS, EventCatalogue } from '../../contract/events.js';
import { isObject } from '../../contract/messages.js';
import { runInstall } from '../adapter/install-core.js';
import type { Installer, InstallFlags } from '../adapter/install-types.js';
import { planInstall } from './install-plan.js';

export type { InstallFlags } from '../adapter/install-types.js';

type Obj = Record<string, unknown>;

/** Keys only hookwarden's own config files have. */
const HOOKWARDEN_ONLY = ['policyHooks', 'events', 'limits', 'packs', 'tenants'];

/**
 * Why a file is not in Claude Code's form, or undefined when it is: a declared dialect, a key or an
 * event name only hookwarden has, or FreeCode's flat hook entries. (The copy declares its dialect, so
 * the adapter reads it as Claude Code's whatever the shape suggests.)
 */
function notClaudeCodeWhy(value: Obj): string | undefined {
  if (value.dialect !== undefined && value.dialect !== 'claude-code')
    return `declared dialect ${JSON.stringify(value.dialect)}`;
  const own = HOOKWARDEN_ONLY.find((k) => Object.hasOwn(value, k));
  if (own !== undefined) return `hookwarden's "${own}" key`;
  const catalogue = new EventCatalogue(DEFAULT_EVENTS);
  for (const [event, groups] of Object.entries(value.hooks as Obj)) {
    if (catalogue.get(event) !== undefined && !Object.hasOwn(CLAUDE_CODE_EVENTS, event))
      return `hookwarden's event name "${event}"`;
    if (Array.isArray(groups) && groups.some((g) => isObject(g) && !Object.hasOwn(g, 'hooks')))
      return `flat hook entries under "${event}" (FreeCode's form)`;
  }
  return undefined;
}

/**
 * Where the hooks copy goes by default: next to the file, or for a plugin's hooks (`<plugin>/hooks/`
 * or its manifest in `<plugin>/.claude-plugin/`) at the plugin's root, so that ${CLAUDE_PLUGIN_ROOT}
 * means the same folder whether it is read as the plugin's root or as the config file's folder.
 */
function defaultCopyPath(path: string): string {
  const dir = dirname(path);
  const up = dirname(dir);
  const pluginRoot =
    basename(dir) === '.claude-plugin'
      ? up
      : basename(dir) === 'hooks' && existsSync(join(up, '.claude-plugin'))
        ? up
        : undefined;
  return join(pluginRoot ?? dir, `${basename(path, extname(path))}.hookwarden${extname(path) || '.json'}`);
}

const CLAUDE_CODE_INSTALLER: Installer = Object.freeze<Installer>({
  command: 'claude-code',
  title: 'Claude Code',
  dialect: 'claude-code',
  files: 'a Claude Code settings.json or hooks.json',
  fileNoun: 'a Claude Code hooks file',
  notMineWhy: (value) => notClaudeCodeWhy(value),
  plan: planInstall,
  entries: (_event, p, words, timeout, line) => [
    {
      ...(p.matcher === undefined ? {} : { matcher: p.matcher }),
      hooks: [{ type: 'command', command: line(words), timeout }],
    },
  ],
  copyPath: defaultCopyPath,
});

export function runClaudeCodeInstall(file: string, flags: InstallFlags): Promise<number> {
  return runInstall(CLAUDE_CODE_INSTALLER, file, flags);
}

/** Claude Code's installer (for uninstall, validate and doctor). */
export const claudeCodeInstaller = (): Installer => CLAUDE_CODE_INSTALLER;
