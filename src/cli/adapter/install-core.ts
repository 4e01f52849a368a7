// `hookwarden <agent> install <file>`, for every agent (Claude Code's and each coding agent's; the
// installer says what is the agent's): the hooks the adapter runs move to a copy the agent does not
// read, and each event of the copy gets ONE adapter hook instead, whose matcher matches whenever one
// of the copy's did and whose timeout covers them all. It prints that block; with --write it writes
// the copy, keeps the file as it was in `<file>.bak`, and puts the block in the file — every file
// created new (O_EXCL | O_NOFOLLOW), never through a symbolic link (install-files.ts), every path
// its real one, a link on the way followed only when it is the user's (install-paths.ts).
//
// Run again, it is the same install, complete: the hooks added to the file since (as an agent's
// /hooks menu adds them) move to the copy, the ones routed already stay, every event of the copy
// gets its entry, and every entry gets the current command (an upgraded or moved hookwarden).
// Nothing changed: nothing is written. `uninstall` (uninstall.ts) undoes it.
import { basename } from 'node:path';
import { UsageError } from '../usage-error.js';
import { eventBudgets, routingBlock, withHooks } from './install-block.js';
import { adapterCommand } from './install-command.js';
import { linkPolicy, realPathOf } from './install-paths.js';
import { type FileState, readAgentFile, readCopy } from './install-state.js';
import type { Installer, InstallFlags } from './install-types.js';
import { writeInstall } from './install-write.js';

type Obj = Record<string, unknown>;

const err = (line: string) => process.stderr.write(`${line}\n`);

/** The copy's path: the earlier install's, else --hooks-file, else the installer's default (each real). */
function copyPathOf(
  installer: Installer,
  state: FileState,
  flags: InstallFlags,
  real: (p: string, what: string) => string,
): string {
  const earlier = state.entries[0]?.copy;
  if (
    earlier !== undefined &&
    flags.hooksFile !== undefined &&
    real(flags.hooksFile, 'the hooks copy') !== real(earlier, 'the hooks copy')
  )
    throw new UsageError(
      `--hooks-file: ${state.path} already routes to ${earlier}; uninstall first to move it`,
    );
  const copy = real(earlier ?? flags.hooksFile ?? installer.copyPath(state.path), 'the hooks copy');
  if (copy === state.path) throw new UsageError('--hooks-file: the copy cannot be the file itself');
  return copy;
}

/** The adapter flags of an earlier install's entries to keep (one set; --socket given now replaces its own). */
function extraFlags(state: FileState, socket: string | undefined): string[] {
  const extra = [...(state.entries[0]?.extra ?? [])];
  const at = extra.findIndex((w) => w === '--socket' || w.startsWith('--socket='));
  if (socket !== undefined && at >= 0) extra.splice(at, extra[at] === '--socket' ? 2 : 1);
  return socket === undefined ? extra : [...extra, '--socket', socket];
}

export async function runInstall(installer: Installer, file: string, flags: InstallFlags): Promise<number> {
  const policy = linkPolicy(flags.followLink);
  const real = (p: string, what: string) => realPathOf(p, what, policy);
  const state = await readAgentFile(installer, real(file, `${installer.title}'s hooks file`));
  const { path } = state;
  const copyPath = copyPathOf(installer, state, flags, real);
  const plan = installer.plan(state.own);
  if (plan.refusals.length > 0) throw new UsageError(`${path}: ${plan.refusals.join('; ')}`);
  const before = state.entries.length > 0 ? await readCopy(installer, copyPath, path) : {};
  const copy: Obj = { ...before };
  for (const [event, groups] of Object.entries(plan.copy))
    copy[event] = [
      ...(Array.isArray(copy[event]) ? (copy[event] as unknown[]) : []),
      ...(groups as unknown[]),
    ];
  if (Object.keys(copy).length === 0) {
    for (const note of plan.notes) err(`hookwarden: ${note}`);
    throw new UsageError(`${path}: no hook the adapter runs (see above)`);
  }
  if (flags.socket !== undefined && flags.socket.trim() === '')
    throw new UsageError('--socket: expected a path, got ""');
  const socket = flags.socket === undefined ? undefined : real(flags.socket, 'the --socket');
  const extra = extraFlags(state, socket);
  const forwards = extra.some((w) => w === '--socket' || w.startsWith('--socket='));
  const command = adapterCommand(installer.command, {
    forwards,
    ...(flags.client === false ? { client: false } : {}),
  });
  const kept: Obj = {};
  for (const [event, value] of Object.entries(state.own)) kept[event] = plan.events.get(event)?.kept ?? value;
  const budgets = await eventBudgets(installer, copy, copyPath);
  const order = Object.keys(state.value.hooks as Obj);
  const hooks = routingBlock({ installer, copy, kept, order, command, extra, copyPath, budgets });
  process.stdout.write(`${JSON.stringify({ hooks }, null, 2)}\n`);
  const added = Object.keys(plan.copy);
  err(
    state.entries.length === 0
      ? `hookwarden: routes ${Object.keys(copy).join(', ')} through \`hookwarden ${installer.command}\`; the hooks it runs: ${copyPath}`
      : `hookwarden: ${path} routes through \`hookwarden ${installer.command}\` already (the hooks it runs: ${copyPath}); ${added.length === 0 ? 'no hook was added since' : `hooks added since, to route now: ${added.join(', ')}`}`,
  );
  for (const note of [...plan.notes, ...(installer.otherFiles?.(path) ?? [])]) err(`hookwarden: ${note}`);
  err(`hookwarden: ${command.note}`);
  if (command.warning !== undefined) err(`hookwarden: ${command.warning}`);
  const text = withHooks(state.text, hooks);
  const copyText = `${JSON.stringify({ description: `The hooks of ${basename(path)}, run by \`hookwarden ${installer.command}\` (written by \`hookwarden ${installer.command} install\`)`, dialect: installer.dialect, hooks: copy }, null, 2)}\n`;
  if (text === state.text && added.length === 0) {
    err(`hookwarden: ${path} is up to date: nothing to write`);
    return 0;
  }
  if (flags.write !== true) {
    err(
      `hookwarden: nothing written. With --write: ${copyPath} gets the hooks, and the "hooks" of ${path} become the block above${state.entries.length === 0 ? ` (the file as it was is kept as ${path}.bak)` : ''}`,
    );
    return 0;
  }
  writeInstall({ path, text, before: state.text, copyPath, copyText, first: state.entries.length === 0 });
  err(
    `hookwarden: wrote ${copyPath}, and the hooks of ${path}${state.entries.length === 0 ? ` (it was kept as ${path}.bak)` : ''}`,
  );
  return 0;
}
