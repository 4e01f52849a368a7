// `hookwarden <agent> install <file>`, for every agent (Claude Code's and each coding agent's; the
// installer says what is the agent's): the hooks the adapter runs move to a copy the agent does not
// read, and each event that had some gets ONE adapter hook instead, whose matcher matches whenever
// one of theirs did and whose timeout covers them all. It prints that block; with --write it writes
// the copy, keeps the file as it was in `<file>.bak`, and puts the block in the file — every file
// created new (O_EXCL | O_NOFOLLOW), never through a symbolic link (install-files.ts).
//
// It never routes twice: a file that already routes through an adapter is refused (and the adapter
// refuses such a file as its config), so an adapter hook can never run the adapter again.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import { formatDiagnostic } from '../../config/diagnostics.js';
import { loadConfig } from '../../config/load.js';
import { readJsonFile } from '../../config/read-json.js';
import { AGENTS, isAgent } from '../../contract/agents/index.js';
import type { Dialect } from '../../contract/dialects.js';
import { isObject } from '../../contract/messages.js';
import { packPinLoader } from '../../packs/pins.js';
import { nativeClientCommand } from '../claude-code/daemon/client-command.js';
import {
  refuseLinkedDir,
  refuseLinkedFile,
  replaceFile,
  writeNewFiles,
} from '../claude-code/install-files.js';
import { adapterConfigs } from '../claude-code/routing.js';
import { UsageError } from '../usage-error.js';

type Obj = Record<string, unknown>;

/** Time allowed on top of the hooks' own: the adapter's start-up, config load and answer. */
const ADAPTER_ALLOWANCE_MS = 2_000;
/** The agent's timeout is this much longer than the adapter's own --timeout: the adapter answers first. */
const ANSWER_MARGIN_S = 3;

export interface EventPlan {
  /** Routed groups or entries (to the hooks copy). */
  readonly routed: Obj[];
  /** Groups or entries left with the agent (handlers the adapter does not run). */
  readonly kept: Obj[];
  /** The adapter entry's matcher (undefined: every occurrence). */
  readonly matcher: string | undefined;
  /** A routed hook failed closed (Cursor's failClosed): the adapter hook must too. */
  readonly failClosed?: boolean;
}

export interface InstallPlan {
  /** The agent's event → its plan, for each event that has hooks. */
  readonly events: ReadonlyMap<string, EventPlan>;
  /** The hooks the copy holds (the adapter's config). */
  readonly copy: Obj;
  /** What stays with the agent and why, one line each. */
  readonly notes: readonly string[];
  /** Why the file cannot be routed as it is (install refuses it), one line each. */
  readonly refusals: readonly string[];
}

/** What is one agent's in `install`. */
export interface Installer {
  /** The adapter command (`claude-code`, `cursor`, …). */
  readonly command: string;
  readonly title: string;
  /** The copy's dialect (declared in it). */
  readonly dialect: Dialect;
  /** What the agent's hook files are (for the "no hooks to route" message): `a Claude Code settings.json or hooks.json`. */
  readonly files: string;
  /** One of them, for the "not one" message: `a Claude Code hooks file`. */
  readonly fileNoun: string;
  /** Why `value` is not this agent's hooks file (undefined: it is). */
  notMineWhy(value: Obj, path: string): string | undefined;
  plan(hooks: Obj): InstallPlan;
  /** The event's adapter entries in the agent's shape (the kept ones follow them). */
  entries(event: string, plan: EventPlan, words: readonly string[], seconds: number): Obj[];
  /** Where the hooks copy goes by default. */
  copyPath(path: string): string;
  /** Notes on other files the agent also reads (Cursor reads Claude Code's hooks too). */
  otherFiles?(path: string): string[];
  /** Whether the hook command may be hookwarden-client (its daemon answers for Claude Code only). */
  readonly nativeClient?: boolean;
}

export interface InstallFlags {
  write?: boolean;
  hooksFile?: string;
  /** A `serve --socket` the adapter forwards to when it runs (written into the command, absolute). */
  socket?: string;
  /** false (--no-client): the Node adapter command even where hookwarden-client was built. */
  client?: boolean;
}

const err = (line: string) => process.stderr.write(`${line}\n`);

async function readHooksFile(installer: Installer, path: string): Promise<{ text: string; hooks: Obj }> {
  if (path.endsWith('.toml'))
    throw new UsageError(
      `${path}: install rewrites JSON files only; move the [hooks] of this config.toml into a hooks.json next to it (Codex reads both) and install that`,
    );
  const read = await readJsonFile(path);
  if (!read.ok) throw new UsageError(`${path}: ${read.message}`);
  if (!isObject(read.value) || !isObject(read.value.hooks) || Object.keys(read.value.hooks).length === 0)
    throw new UsageError(`${path}: no "hooks" to route (expected ${installer.files})`);
  const value = read.value;
  const notMine = installer.notMineWhy(value, path);
  if (notMine !== undefined)
    throw new UsageError(
      `${path}: ${notMine}, not ${installer.fileNoun}: give it to \`hookwarden dispatch\` instead`,
    );
  const routed = adapterConfigs(value);
  if (routed.events.length > 0) {
    const from = routed.configs.length === 0 ? '' : `; its hooks are read from ${routed.configs.join(', ')}`;
    throw new UsageError(`${path} already routes ${routed.events.join(', ')} through hookwarden${from}`);
  }
  return { text: readFileSync(path, 'utf8'), hooks: value.hooks as Obj };
}

/**
 * The adapter as the agent should start it: this node and this hookwarden, absolute; for Claude
 * Code behind hookwarden-client where it was built (it forwards to the daemon, and runs exactly
 * these words itself on any doubt). `note` says which, and why not the client (undefined: an agent
 * without a client).
 */
function adapterCommand(
  installer: Installer,
  flags: InstallFlags,
): { words: string[]; warning?: string; note?: string } {
  const bin = realpathSync(process.argv[1] ?? '');
  const warning = /[\\/]_npx[\\/]/.test(bin)
    ? `warning: hookwarden runs from npx's cache (${bin}), which npx may clear: install it (npm install -g hookwarden) and run install again`
    : undefined;
  const node = [process.execPath, bin, installer.command];
  const warned = warning === undefined ? {} : { warning };
  if (installer.nativeClient !== true) return { words: node, ...warned };
  const client = flags.client === false || flags.socket !== undefined ? undefined : nativeClientCommand();
  const why =
    flags.client === false
      ? '--no-client'
      : flags.socket !== undefined
        ? '--socket forwards to serve'
        : client !== undefined && 'why' in client
          ? client.why
          : undefined;
  const words = client !== undefined && 'path' in client ? [realpathSync(client.path), ...node] : node;
  const note =
    why === undefined
      ? 'the hook command is hookwarden-client: each call goes to the daemon (started on the first call), or runs the Node adapter on any doubt'
      : `the hook command is the Node adapter (${why})`;
  return { words, note, ...warned };
}

/** The name hookwarden dispatches an agent's event under (Claude Code's: the event itself). */
const dispatchName = (dialect: Dialect, event: string) =>
  isAgent(dialect) && Object.hasOwn(AGENTS[dialect].events, event)
    ? AGENTS[dialect].events[event]!.dispatch
    : event;

/** Milliseconds the adapter may need for each event's hooks: their deadlines, in a row or at once. */
async function eventBudgets(
  installer: Installer,
  plan: InstallPlan,
  copyPath: string,
): Promise<Map<string, number>> {
  const loaded = await loadConfig({
    config: [
      {
        kind: 'object',
        value: { dialect: installer.dialect, hooks: plan.copy },
        scope: 'project',
        label: copyPath,
        dir: dirname(copyPath),
      },
    ],
    policy: [],
    pins: packPinLoader(),
  });
  for (const d of [...loaded.fatal, ...loaded.diagnostics])
    err(`hookwarden: ${d.severity}: ${formatDiagnostic(d)}`);
  if (loaded.fatal.length > 0) throw new UsageError(`${copyPath}: the hooks do not load (see above)`);
  const budgets = new Map<string, number>();
  const agent = isAgent(installer.dialect);
  for (const event of Object.keys(plan.copy)) {
    const def = loaded.catalogue.get(dispatchName(installer.dialect, event));
    if (def === undefined) continue;
    // Identical hooks run once per event (their dedupKey); an agent's hooks of another of its events not at all.
    const costs = new Map<string, number>();
    for (const h of loaded.hooks)
      if (h.event === def.name && (!agent || h.agentEvent === event))
        costs.set(h.dedupKey, h.deadlineMs + loaded.limits.killGraceMs);
    const all = [...costs.values()];
    const total = def.mode === 'serial' ? all.reduce((a, b) => a + b, 0) : Math.max(0, ...all);
    budgets.set(event, total + ADAPTER_ALLOWANCE_MS);
  }
  return budgets;
}

/** The routing block: each event's adapter entries first, then the groups the agent keeps. */
function routingBlock(
  installer: Installer,
  plan: InstallPlan,
  budgets: Map<string, number>,
  base: string[],
  copyPath: string,
): Obj {
  const hooks: Obj = {};
  for (const [event, p] of plan.events) {
    const entries: Obj[] = [];
    if (p.routed.length > 0) {
      const seconds = Math.ceil((budgets.get(event) ?? ADAPTER_ALLOWANCE_MS) / 1000);
      const words = [...base, '--timeout', String(seconds), '--config', copyPath];
      entries.push(...installer.entries(event, p, words, seconds + ANSWER_MARGIN_S));
    }
    entries.push(...p.kept);
    if (entries.length > 0) hooks[event] = entries;
  }
  return { hooks };
}

/** The file with its `hooks` replaced, the rest byte for byte (indentation kept). */
function withHooks(text: string, hooks: unknown): string {
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? '  ';
  const edits = modify(text, ['hooks'], hooks, {
    formattingOptions: {
      insertSpaces: !indent.includes('\t'),
      tabSize: indent.includes('\t') ? 1 : indent.length,
      eol: '\n',
    },
  });
  return applyEdits(text, edits);
}

export async function runInstall(installer: Installer, file: string, flags: InstallFlags): Promise<number> {
  const path = resolve(file);
  const { text, hooks } = await readHooksFile(installer, path);
  const copyPath = resolve(flags.hooksFile ?? installer.copyPath(path));
  if (copyPath === path) throw new UsageError('--hooks-file: the copy cannot be the file itself');
  const plan = installer.plan(hooks);
  if (plan.refusals.length > 0) throw new UsageError(`${path}: ${plan.refusals.join('; ')}`);
  if (Object.keys(plan.copy).length === 0) {
    for (const note of plan.notes) err(`hookwarden: ${note}`);
    throw new UsageError(`${path}: no hook the adapter runs (see above)`);
  }
  const command = adapterCommand(installer, flags);
  if (flags.socket !== undefined) {
    if (flags.socket.trim() === '') throw new UsageError('--socket: expected a path, got ""');
    command.words.push('--socket', resolve(flags.socket));
  }
  const budgets = await eventBudgets(installer, plan, copyPath);
  const block = routingBlock(installer, plan, budgets, command.words, copyPath);
  process.stdout.write(`${JSON.stringify(block, null, 2)}\n`);

  const routed = [...plan.events].filter(([, p]) => p.routed.length > 0).map(([e]) => e);
  err(
    `hookwarden: routes ${routed.join(', ')} through \`hookwarden ${installer.command}\`; the hooks it runs: ${copyPath}`,
  );
  for (const note of [...plan.notes, ...(installer.otherFiles?.(path) ?? [])]) err(`hookwarden: ${note}`);
  if (command.note !== undefined) err(`hookwarden: ${command.note}`);
  if (command.warning !== undefined) err(`hookwarden: ${command.warning}`);
  if (flags.write !== true) {
    err(
      `hookwarden: nothing written. With --write: ${copyPath} gets the hooks, and the "hooks" of ${path} become the block above (the file as it was is kept as ${path}.bak)`,
    );
    return 0;
  }
  // Nothing is written through a link: the file, its folder, and every file made next to it.
  refuseLinkedDir(dirname(path));
  refuseLinkedFile(path, 'the file it rewrites');
  const mode = statSync(path).mode & 0o777;
  const copy = {
    description: `The hooks of ${basename(path)}, run by \`hookwarden ${installer.command}\` (written by \`hookwarden ${installer.command} install\`)`,
    dialect: installer.dialect,
    hooks: plan.copy,
  };
  writeNewFiles(
    [
      {
        path: copyPath,
        content: `${JSON.stringify(copy, null, 2)}\n`,
        hint: ', or name another file with --hooks-file',
      },
      { path: `${path}.bak`, content: Buffer.from(text), hint: ' (a backup of an earlier install?)' },
    ],
    mode,
  );
  replaceFile(path, withHooks(text, block.hooks), mode);
  err(`hookwarden: wrote ${copyPath}, and the hooks of ${path} (it was kept as ${path}.bak)`);
  return 0;
}
