// Isolation profile `process` (DESIGN §5): the hook runs in its own process group (spawned detached)
// under rlimits — CPU seconds, open files, file size, and address space only when asked (it breaks
// hooks written in Node or Java). The limits are applied by hookwarden's exec helper (hw-exec, built
// from sandbox/native/hw-exec.c; it also sets no_new_privs and a parent-death SIGKILL, and closes
// inherited descriptors) or, where it was not built, by prlimit(1). Both exec the hook in place: it
// keeps the pid and process group that hookwarden kills.
//
// The wrapper is started with an empty environment (DESIGN §8.5); the hook's variables reach the
// hook without passing through the wrapper's environment: hw-exec reads them from fd 3, and the
// prlimit fallback hands them to env(1) as arguments (visible in that process's /proc/<pid>/cmdline
// for the moment between its exec and the hook's).
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { CommandTask } from '../../src/contract/command-task.js';

export type Wrapper =
  | { readonly kind: 'hw-exec'; readonly path: string }
  | {
      readonly kind: 'prlimit';
      readonly path: string;
      /** env(1), which sets the hook's variables for the prlimit fallback. */
      readonly env: string;
    };

/**
 * How the runner starts a hook: `argv`, run with an empty environment, and what to write to the
 * child's fd 3 (the hook's environment for hw-exec, or bubblewrap's `--args 3`), if anything.
 */
export interface Launch {
  readonly argv: readonly string[];
  readonly fd3: Buffer | undefined;
}

// dist/sandbox/command → dist/native; sandbox/command (sources, under vitest) → dist/native.
const HELPERS = [
  new URL('../../native/hw-exec', import.meta.url),
  new URL('../../dist/native/hw-exec', import.meta.url),
];
const PRLIMITS = ['/usr/bin/prlimit', '/bin/prlimit', '/usr/local/bin/prlimit'];
const ENVS = ['/usr/bin/env', '/bin/env'];

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
  const env = ENVS.find(executable);
  const found: Wrapper | null =
    helper !== undefined
      ? { kind: 'hw-exec', path: helper }
      : prlimit !== undefined && env !== undefined
        ? { kind: 'prlimit', path: prlimit, env }
        : null;
  cache.set(prefer, found);
  return found;
}

/** The argv of the hook itself: `sh -c command`, or its argv. */
export function programArgv(task: CommandTask): string[] {
  return task.program.kind === 'shell' ? ['/bin/sh', '-c', task.program.command] : [...task.program.argv];
}

/**
 * The argv prefix (ending with `--`) that applies the task's rlimits to the program after it. For
 * hw-exec, `fd3` says what the child's fd 3 is: `env` the program's environment, `pass` the
 * program's own (bubblewrap's `--args`), `-` nothing.
 */
export function wrapperArgv(task: CommandTask, wrapper: Wrapper, fd3: 'env' | 'pass' | '-'): string[] {
  const r = task.rlimits;
  const cpu = r.cpuSeconds > 0 ? r.cpuSeconds : Math.ceil(task.deadlineMs / 1000) + 1;
  if (wrapper.kind === 'hw-exec') {
    const as = r.addressSpaceBytes === undefined ? '-' : String(r.addressSpaceBytes);
    return [wrapper.path, String(cpu), String(r.openFiles), String(r.fileSizeBytes), as, fd3, '--'];
  }
  const limits = [`--cpu=${cpu}`, `--nofile=${r.openFiles}`, `--fsize=${r.fileSizeBytes}`];
  if (r.addressSpaceBytes !== undefined) limits.push(`--as=${r.addressSpaceBytes}`);
  return [wrapper.path, ...limits, '--'];
}

/** NUL-terminated NAME=VALUE records: hw-exec's fd 3 protocol. */
export function envRecords(env: Readonly<Record<string, string>>): Buffer {
  return Buffer.from(
    Object.entries(env)
      .map(([k, v]) => `${k}=${v}\0`)
      .join(''),
  );
}

/** How to start the hook in `process` isolation with `env` as its (whole) environment. */
export function processLaunch(
  task: CommandTask,
  wrapper: Wrapper,
  env: Readonly<Record<string, string>>,
): Launch {
  const program = programArgv(task);
  if (wrapper.kind === 'hw-exec') {
    return { argv: [...wrapperArgv(task, wrapper, 'env'), ...program], fd3: envRecords(env) };
  }
  // env(1) takes every leading NAME=VALUE as an assignment: a program whose name contains `=` is
  // started through a shell that execs its arguments as they are.
  const safe = program[0]?.includes('=') ? ['/bin/sh', '-c', 'exec "$@"', 'sh', ...program] : program;
  const assignments = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  return {
    argv: [...wrapperArgv(task, wrapper, '-'), wrapper.env, '-i', '--', ...assignments, ...safe],
    fd3: undefined,
  };
}
