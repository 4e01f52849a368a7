// `hookwarden claude-code install <file>`: turns a Claude Code hooks file (settings.json, a plugin's
// hooks.json or plugin.json) into a sandboxed setup. The handlers the adapter runs move to a hooks
// copy (`<name>.hookwarden.json` next to the file, or at a plugin's root; Claude Code never reads
// it); each event that had
// them gets one adapter hook instead, whose matcher matches whenever one of theirs did and whose
// timeout covers them all. Prints that settings block; with --write, writes the copy and puts the
// block in the file (the file as it was is kept as `<file>.bak`).
//
// It never routes twice: a file that already routes through the adapter is refused (and the adapter
// refuses such a file as its config), so an adapter hook can never run the adapter again.

import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import { formatDiagnostic } from '../../config/diagnostics.js';
import { loadConfig } from '../../config/load.js';
import { readJsonFile } from '../../config/read-json.js';
import { CLAUDE_CODE_EVENTS } from '../../contract/claude-code-answer.js';
import { DEFAULT_EVENTS, EventCatalogue } from '../../contract/events.js';
import { isObject } from '../../contract/messages.js';
import { packPinLoader } from '../../packs/pins.js';
import { UsageError } from '../usage-error.js';
import { nativeClientCommand } from './daemon/client-command.js';
import { refuseLinkedDir, refuseLinkedFile, replaceFile, writeNewFiles } from './install-files.js';
import { type InstallPlan, planInstall } from './install-plan.js';
import { adapterConfigs, shellQuote } from './routing.js';

export interface InstallFlags {
  write?: boolean;
  hooksFile?: string;
  /** A `serve --socket` the adapter forwards to when it runs (written into the command, absolute). */
  socket?: string;
  /** false (--no-client): the Node adapter command even where hookwarden-client was built. */
  client?: boolean;
}

/** Time allowed on top of the hooks' own: the adapter's start-up, config load and answer. */
const ADAPTER_ALLOWANCE_MS = 2_000;
/** Claude Code's timeout is this much longer than the adapter's own --timeout: the adapter answers first. */
const ANSWER_MARGIN_S = 3;

type Obj = Record<string, unknown>;
const err = (line: string) => process.stderr.write(`${line}\n`);

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

async function readHooksFile(path: string): Promise<{ text: string; value: Obj; hooks: Obj }> {
  const read = await readJsonFile(path);
  if (!read.ok) throw new UsageError(`${path}: ${read.message}`);
  if (!isObject(read.value) || !isObject(read.value.hooks) || Object.keys(read.value.hooks).length === 0)
    throw new UsageError(`${path}: no "hooks" to route (expected a Claude Code settings.json or hooks.json)`);
  const value = read.value;
  const notClaudeCode = notClaudeCodeWhy(value);
  if (notClaudeCode !== undefined)
    throw new UsageError(
      `${path}: ${notClaudeCode}, not a Claude Code hooks file: give it to \`hookwarden dispatch\` instead`,
    );
  const routed = adapterConfigs(value);
  if (routed.events.length > 0) {
    const from = routed.configs.length === 0 ? '' : `; its hooks are read from ${routed.configs.join(', ')}`;
    throw new UsageError(`${path} already routes ${routed.events.join(', ')} through hookwarden${from}`);
  }
  return { text: readFileSync(path, 'utf8'), value, hooks: value.hooks as Obj };
}

/**
 * The adapter as Claude Code should start it: this node and this hookwarden, absolute, behind
 * hookwarden-client where it was built (it forwards to the daemon, and runs exactly these words
 * itself on any doubt). `note` says which, and why not the client.
 */
function adapterCommand(flags: InstallFlags): { words: string[]; warning?: string; note: string } {
  const bin = realpathSync(process.argv[1] ?? '');
  const warning = /[\\/]_npx[\\/]/.test(bin)
    ? `warning: hookwarden runs from npx's cache (${bin}), which npx may clear: install it (npm install -g hookwarden) and run install again`
    : undefined;
  const node = [process.execPath, bin, 'claude-code'];
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
  return { words, note, ...(warning === undefined ? {} : { warning }) };
}

/** Milliseconds the adapter may need for each event's hooks: their deadlines, in a row or at once. */
async function eventBudgets(plan: InstallPlan, copyPath: string): Promise<Map<string, number>> {
  const loaded = await loadConfig({
    config: [
      {
        kind: 'object',
        value: { dialect: 'claude-code', hooks: plan.copy },
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
  for (const event of Object.keys(plan.copy)) {
    const def = loaded.catalogue.get(event);
    if (def === undefined) continue;
    // Identical hooks run once per event (their dedupKey).
    const costs = new Map<string, number>();
    for (const h of loaded.hooks)
      if (h.event === def.name) costs.set(h.dedupKey, h.deadlineMs + loaded.limits.killGraceMs);
    const all = [...costs.values()];
    const total = def.mode === 'serial' ? all.reduce((a, b) => a + b, 0) : Math.max(0, ...all);
    budgets.set(event, total + ADAPTER_ALLOWANCE_MS);
  }
  return budgets;
}

/** The settings block: each event's adapter group first, then the groups Claude Code keeps. */
function routingBlock(
  plan: InstallPlan,
  budgets: Map<string, number>,
  base: string[],
  copyPath: string,
): Obj {
  const hooks: Obj = {};
  for (const [event, p] of plan.events) {
    const groups: Obj[] = [];
    if (p.routed.length > 0) {
      const seconds = Math.ceil((budgets.get(event) ?? ADAPTER_ALLOWANCE_MS) / 1000);
      const words = [...base, '--timeout', String(seconds), '--config', copyPath];
      groups.push({
        ...(p.matcher === undefined ? {} : { matcher: p.matcher }),
        hooks: [
          { type: 'command', command: words.map(shellQuote).join(' '), timeout: seconds + ANSWER_MARGIN_S },
        ],
      });
    }
    groups.push(...p.kept);
    if (groups.length > 0) hooks[event] = groups;
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

export async function runClaudeCodeInstall(file: string, flags: InstallFlags): Promise<number> {
  const path = resolve(file);
  const { text, hooks } = await readHooksFile(path);
  const copyPath = resolve(flags.hooksFile ?? defaultCopyPath(path));
  if (copyPath === path) throw new UsageError('--hooks-file: the copy cannot be the file itself');
  const plan = planInstall(hooks);
  if (plan.refusals.length > 0) throw new UsageError(`${path}: ${plan.refusals.join('; ')}`);
  if (Object.keys(plan.copy).length === 0) {
    for (const note of plan.notes) err(`hookwarden: ${note}`);
    throw new UsageError(`${path}: no hook the adapter runs (see above)`);
  }
  const command = adapterCommand(flags);
  if (flags.socket !== undefined) {
    if (flags.socket.trim() === '') throw new UsageError('--socket: expected a path, got ""');
    command.words.push('--socket', resolve(flags.socket));
  }
  const budgets = await eventBudgets(plan, copyPath);
  const block = routingBlock(plan, budgets, command.words, copyPath);
  process.stdout.write(`${JSON.stringify(block, null, 2)}\n`);

  const routed = [...plan.events].filter(([, p]) => p.routed.length > 0).map(([e]) => e);
  err(
    `hookwarden: routes ${routed.join(', ')} through \`hookwarden claude-code\`; the hooks it runs: ${copyPath}`,
  );
  for (const note of plan.notes) err(`hookwarden: ${note}`);
  err(`hookwarden: ${command.note}`);
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
    description: `The hooks of ${basename(path)}, run by \`hookwarden claude-code\` (written by \`hookwarden claude-code install\`)`,
    dialect: 'claude-code',
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
