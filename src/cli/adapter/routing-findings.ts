// What `validate` and `doctor` say about an installed agent's file (one `<agent> install` routed):
// the hooks in it that run outside hookwarden — added since install (an agent's /hooks menu writes
// there), or left with the agent by design — the hooks in its copy whose event the file does not
// route (they never run), a copy gone, and a command naming a program no longer there (every call
// then fails closed). Given the copy itself, the file next to it that routes to it is judged.
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { readJsonFile } from '../../config/read-json.js';
import { isAgent } from '../../contract/agents/index.js';
import { isObject } from '../../contract/messages.js';
import { claudeCodeInstaller } from '../claude-code/install.js';
import { agentInstaller } from './agent-install.js';
import { type FileState, firstCommandWords, readAgentFile, readCopy } from './install-state.js';
import type { Installer } from './install-types.js';

type Obj = Record<string, unknown>;

export interface RoutingFinding {
  /** warning: a hook runs outside hookwarden, or never runs, or every call fails closed; note: by design. */
  readonly severity: 'warning' | 'note';
  readonly file: string;
  readonly message: string;
}

const installerOf = (adapter: string): Installer | undefined =>
  adapter === 'claude-code' ? claudeCodeInstaller() : isAgent(adapter) ? agentInstaller(adapter) : undefined;

/** The adapter a file's hooks name (`hookwarden <adapter>`), if any. */
function routedBy(value: Obj): Installer | undefined {
  const text = JSON.stringify(value.hooks ?? {});
  const m = /hookwarden[^"]*?\s(claude-code|codex|gemini|cursor|copilot)\s/.exec(text);
  return m === null ? undefined : installerOf(m[1]!);
}

/** A short name for a hook in findings: its command, else its type. */
function describe(group: unknown): string {
  const handlers = isObject(group) && Array.isArray(group.hooks) ? group.hooks : [group];
  return handlers
    .map((h) => (isObject(h) ? String(h.command ?? h.bash ?? `a "${String(h.type)}" hook`) : 'an entry'))
    .map((c) => (c.length > 80 ? `${c.slice(0, 77)}…` : c))
    .join('; ');
}

/** The programs the adapter commands name that are gone (each call then fails closed). */
function goneWords(state: FileState): string[] {
  const gone = new Set<string>();
  const hooks = JSON.stringify(state.value.hooks ?? {});
  for (const m of hooks.matchAll(/"(?:command|bash)":("(?:[^"\\]|\\.)*")/g)) {
    const words = firstCommandWords(JSON.parse(m[1]!) as string);
    const at = words.findIndex((w) => /^(claude-code|codex|gemini|cursor|copilot)$/.test(w));
    for (const w of words.slice(0, Math.max(0, at))) if (w.startsWith('/') && !existsSync(w)) gone.add(w);
  }
  return [...gone];
}

/** The findings of a routed agent file. */
async function fileFindings(installer: Installer, path: string): Promise<RoutingFinding[]> {
  const state = await readAgentFile(installer, path);
  if (state.entries.length === 0) return [];
  const out: RoutingFinding[] = [];
  const fix = `run \`hookwarden ${installer.command} install ${path} --write\` to route it`;
  const plan = installer.plan(state.own);
  for (const [event, groups] of Object.entries(plan.copy))
    for (const g of groups as unknown[])
      out.push({
        severity: 'warning',
        file: path,
        message: `hooks.${event}: ${describe(g)} runs outside hookwarden (added after install?): ${fix}`,
      });
  for (const note of plan.notes)
    out.push({ severity: 'note', file: path, message: `runs outside hookwarden: ${note}` });
  for (const w of goneWords(state))
    out.push({
      severity: 'warning',
      file: path,
      message: `the adapter hooks run ${w}, which is gone: every call fails closed; run \`hookwarden ${installer.command} install ${path} --write\` with the hookwarden you use now`,
    });
  const copyPath = state.entries[0]!.copy;
  let copy: Obj;
  try {
    copy = await readCopy(installer, copyPath, path);
  } catch (err) {
    return [
      ...out,
      {
        severity: 'warning',
        file: path,
        message: `${(err as Error).message}: every routed call fails closed`,
      },
    ];
  }
  const routed = new Set(state.entries.map((e) => e.event));
  for (const event of Object.keys(copy))
    if (!routed.has(event))
      out.push({
        severity: 'warning',
        file: copyPath,
        message: `hooks.${event}: never runs: ${path} routes no ${event} through hookwarden; ${fix.replace('route it', 'route the event')}`,
      });
  return out;
}

/** The agent file next to a copy that may route to it (install's copy names, read backwards). */
function candidatesOf(copy: string): string[] {
  const dir = dirname(copy);
  const m = /^(.*)\.hookwarden(\.json)?$/.exec(basename(copy));
  if (m === null) return [];
  const name = `${m[1]}.json`;
  return [join(dir, name), join(dir, 'hooks', name), join(dir, '.claude-plugin', name)];
}

/** The findings for `path`: an agent's routed file, or a hooks copy (judged through its file). */
export async function routingFindings(file: string): Promise<RoutingFinding[]> {
  const path = resolve(file);
  const read = await readJsonFile(path);
  if (!read.ok || !isObject(read.value)) return [];
  const installer = routedBy(read.value);
  try {
    if (installer !== undefined) return await fileFindings(installer, path);
    if (
      typeof read.value.dialect !== 'string' ||
      !/hookwarden .* install/.test(String(read.value.description))
    )
      return [];
    const own = installerOf(read.value.dialect);
    for (const file of candidatesOf(path).filter((f) => existsSync(f))) {
      const state = own === undefined ? undefined : await readAgentFile(own, file).catch(() => undefined);
      if (state?.entries.some((e) => e.copy === path) === true)
        return (await fileFindings(own!, file)).filter((f) => f.severity === 'warning');
    }
    return [
      {
        severity: 'warning',
        file: path,
        message: `no agent file next to it routes to this copy: its hooks never run (\`hookwarden ${String(read.value.dialect)} install <file>\` routes a file through it)`,
      },
    ];
  } catch (err) {
    return [
      { severity: 'note', file: path, message: `its routing cannot be judged: ${(err as Error).message}` },
    ];
  }
}
