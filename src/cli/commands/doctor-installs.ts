// `doctor`'s look at the agents' hook files where the agents read them (this project's and the
// user's): for each, whether its hooks run under hookwarden. A file `<agent> install` routed is
// judged as validate judges it (adapter/routing-findings.ts): hooks that run outside hookwarden (added
// since, or left by design), hooks of its copy that never run, programs gone. A file not routed has
// every hook run by the agent itself: named, with the command that routes them.
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { readJsonFile } from '../../config/read-json.js';
import { isObject } from '../../contract/messages.js';
import { routingFindings } from '../adapter/routing-findings.js';

export interface InstallCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly fix?: string;
}

/** Where each agent reads hooks: relative to a project, and to the home directory. */
const PLACES: readonly (readonly [agent: string, project: readonly string[], home: readonly string[]])[] = [
  ['claude-code', ['.claude/settings.json', '.claude/settings.local.json'], ['.claude/settings.json']],
  ['codex', ['.codex/hooks.json'], ['.codex/hooks.json']],
  ['gemini', ['.gemini/settings.json'], ['.gemini/settings.json']],
  ['cursor', ['.cursor/hooks.json'], ['.cursor/hooks.json']],
  ['copilot', ['.github/hooks/*.json'], ['.copilot/hooks/*.json']],
];

/** The files `pattern` names under `base` (a `*.json` last part lists the folder). */
function filesOf(base: string, pattern: string): string[] {
  if (!pattern.endsWith('*.json')) return [join(base, pattern)].filter((f) => existsSync(f));
  const dir = join(base, pattern.slice(0, -'*.json'.length));
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

async function hookCount(file: string): Promise<number> {
  const read = await readJsonFile(file);
  if (!read.ok || !isObject(read.value) || !isObject(read.value.hooks)) return 0;
  return Object.values(read.value.hooks).reduce<number>((n, g) => n + (Array.isArray(g) ? g.length : 0), 0);
}

/** One check per agent hook file found in `project` and `home`. */
export async function installChecks(
  project = process.cwd(),
  home = process.env.HOME ?? homedir(),
): Promise<InstallCheck[]> {
  const checks: InstallCheck[] = [];
  const seen = new Set<string>();
  for (const [agent, inProject, inHome] of PLACES) {
    const files = [
      ...inProject.flatMap((p) => filesOf(project, p)),
      ...inHome.flatMap((p) => filesOf(home, p)),
    ].filter((f) => !seen.has(resolve(f)) && seen.add(resolve(f)));
    for (const file of files) {
      const findings = await routingFindings(file);
      const name = `${agent} hooks`;
      const routed = findings.length > 0 || (await hookCount(file)) === 0;
      if (!routed) {
        checks.push({
          name,
          ok: true,
          detail: `${file}: every hook runs outside hookwarden (the agent runs them itself)`,
          fix: `\`hookwarden ${agent} install ${file} --write\` routes them through hookwarden`,
        });
        continue;
      }
      const warnings = findings.filter((f) => f.severity === 'warning');
      const notes = findings.filter((f) => f.severity === 'note');
      checks.push({
        name,
        ok: warnings.length === 0,
        detail:
          warnings.length === 0
            ? `${file}: routed through hookwarden${notes.length === 0 ? '' : `; ${notes.map((n) => n.message).join('; ')}`}`
            : warnings.map((w) => `${w.file}: ${w.message}`).join('; '),
        ...(warnings.length === 0 ? {} : { fix: `\`hookwarden ${agent} install ${file} --write\`` }),
      });
    }
  }
  return checks;
}
