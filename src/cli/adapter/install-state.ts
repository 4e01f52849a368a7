// An agent's hooks file as `<agent> install` and `uninstall` find it: its hooks, and which of them
// are this adapter's own entries (what an earlier install wrote), with the copy they read. Install
// runs on what is left (hooks added since, or all of them the first time) and merges it into the
// copy; uninstall puts the copy's hooks back where the adapter's entries are.
import { readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { handlerWords, runsAdapter } from '../../config/adapter-hook.js';
import { readJsonFile } from '../../config/read-json.js';
import { isObject } from '../../contract/messages.js';
import { ADAPTER_COMMANDS } from '../claude-code/adapter-call.js';
import { shellWords } from '../claude-code/routing.js';
import { UsageError } from '../usage-error.js';
import type { Installer } from './install-types.js';

type Obj = Record<string, unknown>;

/** One adapter hook an earlier install wrote: its event, its flags, the copy it reads. */
interface AdapterEntry {
  readonly event: string;
  readonly copy: string;
  /** Its adapter flags other than those install writes (--timeout, --config, --event, --explicit-allow). */
  readonly extra: readonly string[];
}

export interface FileState {
  /** The file's real path. */
  readonly path: string;
  readonly text: string;
  readonly value: Obj;
  /** Its hooks with this adapter's entries taken out (empty groups dropped). */
  readonly own: Obj;
  /** This adapter's entries, in file order. */
  readonly entries: readonly AdapterEntry[];
}

/** The words of the first simple command of a shell line: up to the first unquoted `;`, `&`, `|` or newline. */
export function firstCommandWords(line: string): string[] {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === ';' || c === '&' || c === '|' || c === '\n') return shellWords(line.slice(0, i));
  }
  return shellWords(line);
}

/** The flags install writes itself (each with its value where it takes one). */
const WRITTEN: Readonly<Record<string, number>> = {
  '--timeout': 1,
  '--config': 1,
  '--event': 1,
  '--explicit-allow': 0,
};

/** The copy and the other flags of an adapter hook of `command`, or why install cannot read it. */
function entryOf(handler: Obj, command: string): { copy: string; extra: string[] } | string {
  const line = typeof handler.command === 'string' ? handler.command : handler.bash;
  const words =
    typeof line === 'string' && !Array.isArray(handler.args)
      ? firstCommandWords(line)
      : handlerWords(handler);
  const at = words.findIndex((w, i) => i > 0 && w === command);
  const configs: string[] = [];
  const extra: string[] = [];
  for (let i = at + 1; i < words.length; i++) {
    const w = words[i]!;
    const [name, value] =
      w.startsWith('--') && w.includes('=') ? [w.slice(0, w.indexOf('=')), w] : [w, undefined];
    if (name === '--config' || name === '-c') {
      const v = value === undefined ? words[++i] : value.slice(value.indexOf('=') + 1);
      if (v !== undefined) configs.push(v);
    } else if (Object.hasOwn(WRITTEN, name)) i += value === undefined ? WRITTEN[name]! : 0;
    else extra.push(w);
  }
  if (configs.length !== 1 || !isAbsolute(configs[0]!))
    return `its command names ${configs.length === 1 ? `the relative --config ${configs[0]}` : `${configs.length} --config files`}, not the one absolute copy install writes`;
  return { copy: configs[0]!, extra };
}

/** The adapter command a handler runs (`claude-code`, `cursor`, …), if any. */
function adapterOf(handler: unknown): string | undefined {
  if (!runsAdapter(handler)) return undefined;
  const words = handlerWords(handler);
  return words.find((w, i) => i > 0 && ADAPTER_COMMANDS.includes(w));
}

/** Splits the hooks into this adapter's entries and the rest; throws on another adapter's entry. */
function splitHooks(installer: Installer, path: string, hooks: Obj): { own: Obj; entries: AdapterEntry[] } {
  const own: Obj = {};
  const entries: AdapterEntry[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      own[event] = groups;
      continue;
    }
    const kept: unknown[] = [];
    let removed = false;
    for (const group of groups) {
      const nested = isObject(group) && Array.isArray(group.hooks);
      const handlers: unknown[] = nested ? (group.hooks as unknown[]) : [group];
      const rest = handlers.filter((h) => {
        const adapter = adapterOf(h);
        if (adapter === undefined) return true;
        if (adapter !== installer.command)
          throw new UsageError(
            `${path} routes ${event} through \`hookwarden ${adapter}\`: not ${installer.title}'s adapter (install and uninstall it with \`hookwarden ${adapter}\`)`,
          );
        const entry = entryOf(h as Obj, adapter);
        if (typeof entry === 'string')
          throw new UsageError(
            `${path}: the adapter hook of ${event}: ${entry}; restore ${path}.bak, or edit it by hand`,
          );
        entries.push({ event, ...entry });
        removed = true;
        return false;
      });
      if (rest.length === handlers.length) kept.push(group);
      else if (nested && rest.length > 0) kept.push({ ...(group as Obj), hooks: rest });
    }
    // An event that held only adapter hooks is the copy's now: it leaves the file's own hooks.
    if (kept.length > 0 || !removed) own[event] = kept;
  }
  return { own, entries };
}

/** Reads the agent's file at its real `path`, refusing what is not this agent's hooks file. */
export async function readAgentFile(installer: Installer, path: string): Promise<FileState> {
  if (path.endsWith('.toml'))
    throw new UsageError(
      `${path}: install rewrites JSON files only; move the [hooks] of this config.toml into a hooks.json next to it (Codex reads both) and install that`,
    );
  const read = await readJsonFile(path);
  if (!read.ok) throw new UsageError(`${path}: ${read.message}`);
  if (!isObject(read.value) || !isObject(read.value.hooks))
    throw new UsageError(`${path}: no "hooks" to route (expected ${installer.files})`);
  const value = read.value;
  const notMine = installer.notMineWhy(value, path);
  if (notMine !== undefined)
    throw new UsageError(
      `${path}: ${notMine}, not ${installer.fileNoun}: give it to \`hookwarden dispatch\` instead`,
    );
  const { own, entries } = splitHooks(installer, path, value.hooks as Obj);
  const copies = [...new Set(entries.map((e) => e.copy))];
  if (copies.length > 1)
    throw new UsageError(
      `${path}: its adapter hooks read ${copies.length} copies (${copies.join(', ')}); install writes one`,
    );
  return { path, text: readFileSync(path, 'utf8'), value, own, entries };
}

/** The hooks of the copy an earlier install wrote (must be this adapter's, in its dialect). */
export async function readCopy(installer: Installer, copy: string, file: string): Promise<Obj> {
  const read = await readJsonFile(copy);
  if (!read.ok)
    throw new UsageError(
      `${copy}, the hooks ${file} routes to: ${read.message}; restore ${file}.bak (the file before install), or put the copy back`,
    );
  if (!isObject(read.value) || !isObject(read.value.hooks) || read.value.dialect !== installer.dialect)
    throw new UsageError(
      `${copy} is not a hooks copy of ${installer.title}'s ("dialect": "${installer.dialect}", "hooks")`,
    );
  return read.value.hooks as Obj;
}
