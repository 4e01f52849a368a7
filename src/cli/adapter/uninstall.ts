// `hookwarden <agent> uninstall <file>`: install undone, whatever happened to the file since. The
// hooks of the copy go back where the adapter's entries are (an event of the copy the file no longer
// names is added back), every other byte and every hook added or changed since stays; the copy and
// `<file>.bak` (written by install) are removed, and the daemons that served the copy are stopped.
// As safe against links as install (install-paths.ts, install-files.ts). A file that routes nothing
// is left as it is.
import { lstatSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { askDaemon, daemonSockets } from '../claude-code/daemon/control.js';
import { refuseLinkedDir, refuseLinkedFile, replaceFile } from '../claude-code/install-files.js';
import { withHooks } from './install-block.js';
import { linkPolicy, realPathOf } from './install-paths.js';
import { type FileState, readAgentFile, readCopy } from './install-state.js';
import type { Installer } from './install-types.js';

type Obj = Record<string, unknown>;

export interface UninstallFlags {
  write?: boolean;
  followLink?: string[];
}

const err = (line: string) => process.stderr.write(`${line}\n`);

/** The file's hooks with the copy's back in place of the adapter's entries. */
function restoredHooks(state: FileState, copy: Obj): Obj {
  const routed = new Set(state.entries.map((e) => e.event));
  const hooks: Obj = {};
  for (const event of Object.keys(state.value.hooks as Obj)) {
    const own = state.own[event];
    if (!routed.has(event)) {
      if (own !== undefined) hooks[event] = own;
      continue;
    }
    const back = Array.isArray(copy[event]) ? (copy[event] as unknown[]) : [];
    hooks[event] = [...back, ...(Array.isArray(own) ? own : [])];
  }
  for (const [event, groups] of Object.entries(copy)) if (!Object.hasOwn(hooks, event)) hooks[event] = groups;
  return hooks;
}

/** Removes a file install wrote, if it is still a regular file (never through a link). */
function removeWritten(path: string, what: string): string | undefined {
  try {
    const st = lstatSync(path);
    if (!st.isFile()) return `${path} is not a regular file: left as it is (${what})`;
  } catch {
    return undefined;
  }
  refuseLinkedDir(dirname(path));
  rmSync(path);
  return `removed ${path} (${what})`;
}

/** Stops the daemons whose configuration is the copy (nothing routes to it any more). */
async function stopDaemonsOf(copy: string): Promise<string[]> {
  const lines: string[] = [];
  for (const socket of daemonSockets()) {
    const s = await askDaemon(socket, 'status');
    if ('error' in s || !Array.isArray(s.args)) continue;
    const args = s.args as string[];
    if (!args.some((a, i) => a === copy && (args[i - 1] === '--config' || args[i - 1] === '-c'))) continue;
    const stopped = await askDaemon(socket, 'stop');
    lines.push(
      'error' in stopped
        ? `the daemon on ${socket}: ${String(stopped.error)}`
        : `stopped the daemon pid ${s.pid} that served ${copy}`,
    );
  }
  return lines;
}

export async function runUninstall(
  installer: Installer,
  file: string,
  flags: UninstallFlags,
): Promise<number> {
  const policy = linkPolicy(flags.followLink);
  const real = (p: string, what: string) => realPathOf(p, what, policy);
  const state = await readAgentFile(installer, real(file, `${installer.title}'s hooks file`));
  const { path } = state;
  if (state.entries.length === 0) {
    err(
      `hookwarden: ${path} routes nothing through \`hookwarden ${installer.command}\`: nothing to uninstall`,
    );
    return 0;
  }
  const copyPath = real(state.entries[0]!.copy, 'the hooks copy');
  const copy = await readCopy(installer, copyPath, path);
  const hooks = restoredHooks(state, copy);
  process.stdout.write(`${JSON.stringify({ hooks }, null, 2)}\n`);
  const events = [...new Set(state.entries.map((e) => e.event))];
  err(
    `hookwarden: the hooks of ${copyPath} go back to ${path} (${events.join(', ')}); every other change to the file stays`,
  );
  if (flags.write !== true) {
    err(
      `hookwarden: nothing written. With --write: ${path} gets the hooks above, and ${copyPath} and ${path}.bak are removed`,
    );
    return 0;
  }
  refuseLinkedFile(copyPath, 'the hooks copy it removes');
  replaceFile(path, withHooks(state.text, hooks), lstatSync(path).mode & 0o777);
  const lines = [
    `wrote the hooks of ${path}`,
    removeWritten(copyPath, 'the hooks copy'),
    removeWritten(`${path}.bak`, 'the file as it was before install; its hooks are back in it'),
    ...(await stopDaemonsOf(copyPath)),
  ];
  for (const line of lines) if (line !== undefined) err(`hookwarden: ${line}`);
  return 0;
}
