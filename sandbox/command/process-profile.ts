// Isolation profile `process` (DESIGN §5): the hook runs in its own process group (spawned detached)
// under rlimits — CPU seconds, open files, file size, and address space only when asked (it breaks
// hooks written in Node or Java). The limits are applied by hookwarden's exec helper (hw-exec, built
// from sandbox/native/hw-exec.c; it also sets no_new_privs and a parent-death SIGKILL) or, where it
// was not built, by prlimit(1). Both exec the hook in place: it keeps the pid and process group that
// hookwarden kills.
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CommandTask } from '../../src/contract/command-task.js';

export type Wrapper = { readonly kind: 'hw-exec' | 'prlimit'; readonly path: string };

// dist/sandbox/command → dist/native; sandbox/command (sources, under vitest) → dist/native.
const HELPERS = [
  new URL('../../native/hw-exec', import.meta.url),
  new URL('../../dist/native/hw-exec', import.meta.url),
];
const PRLIMITS = ['/usr/bin/prlimit', '/bin/prlimit', '/usr/local/bin/prlimit'];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const cache = new Map<string, Wrapper | null>();

/**
 * The rlimit wrapper to use: the helper when it was built, else prlimit(1); null when neither exists.
 * `prefer` picks one explicitly (tests run the runner under both).
 */
export function findWrapper(prefer: 'auto' | Wrapper['kind'] = 'auto'): Wrapper | null {
  const hit = cache.get(prefer);
  if (hit !== undefined) return hit;
  const helper = prefer === 'prlimit' ? undefined : HELPERS.map((u) => fileURLToPath(u)).find(executable);
  const prlimit = prefer === 'hw-exec' ? undefined : PRLIMITS.find(executable);
  const found: Wrapper | null =
    helper !== undefined
      ? { kind: 'hw-exec', path: helper }
      : prlimit !== undefined
        ? { kind: 'prlimit', path: prlimit }
        : null;
  cache.set(prefer, found);
  return found;
}

/** The argv of the hook itself: `sh -c command`, or its argv. */
export function programArgv(task: CommandTask): string[] {
  return task.program.kind === 'shell' ? ['/bin/sh', '-c', task.program.command] : [...task.program.argv];
}

/** The argv that runs `program` (default: the hook) under the task's rlimits: [file, ...args]. */
export function processArgv(
  task: CommandTask,
  wrapper: Wrapper,
  program: string[] = programArgv(task),
): string[] {
  const r = task.rlimits;
  const cpu = r.cpuSeconds > 0 ? r.cpuSeconds : Math.ceil(task.deadlineMs / 1000) + 1;
  if (wrapper.kind === 'hw-exec') {
    const as = r.addressSpaceBytes === undefined ? '-' : String(r.addressSpaceBytes);
    return [wrapper.path, String(cpu), String(r.openFiles), String(r.fileSizeBytes), as, '--', ...program];
  }
  const limits = [`--cpu=${cpu}`, `--nofile=${r.openFiles}`, `--fsize=${r.fileSizeBytes}`];
  if (r.addressSpaceBytes !== undefined) limits.push(`--as=${r.addressSpaceBytes}`);
  return [wrapper.path, ...limits, '--', ...program];
}
