// Isolation profile `process` (docs/security.md): the hook runs in its own session and process group under
// rlimits — CPU seconds, open files, file size, and address space only when asked (it breaks hooks
// written in Node or Java) — with no_new_privs, no capabilities and a parent-death SIGKILL, every
// inherited descriptor closed, and exactly its own environment; contained (its own user, PID, mount
// and IPC namespaces and /proc: it sees and signals only its own processes) where the host allows
// it. The launcher applies them: the spawn server in the child it clones (sandbox/native/
// spawn-child.c, spawn-contain.c), or on the Node spawn path the hw-exec helper or prlimit(1)
// (wrapper.ts; uncontained). This file says what to start; the parts every profile shares are here.
import { type CommandTask, DEFAULT_MAX_PROCESSES } from '../../src/contract/command-task.js';
import { directExec } from './direct-exec.js';
import type { Containment, LaunchLimits, LaunchSpec } from './launch.js';

/** The host's unprivileged `nobody` user and group. */
export const NOBODY = 65534;

/** The argv of the hook itself: `sh -c command` (or its dialect's shell), or its argv. */
export function programArgv(task: CommandTask): string[] {
  const p = task.program;
  return p.kind === 'shell' ? [...(p.interpreter ?? ['/bin/sh', '-c']), p.command] : [...p.argv];
}

/** The task's rlimits; an unset CPU limit is the deadline's, rounded up, plus a second. */
function launchLimits(task: CommandTask): LaunchLimits {
  const r = task.rlimits;
  return {
    cpuSeconds: r.cpuSeconds > 0 ? r.cpuSeconds : Math.ceil(task.deadlineMs / 1000) + 1,
    openFiles: r.openFiles,
    fileSizeBytes: r.fileSizeBytes,
    addressSpaceBytes: r.addressSpaceBytes,
  };
}

/** What every profile's launch shares: where, under which limits, as whom, with which input. */
export function baseSpec(
  task: CommandTask,
): Omit<LaunchSpec, 'argv' | 'env' | 'fd3' | 'contain' | 'dropCapabilities'> {
  return {
    cwd: task.cwd,
    limits: launchLimits(task),
    runAs: task.runAs === 'nobody' ? { uid: NOBODY, gid: NOBODY } : undefined,
    stdin: task.stdin,
    maxOutputBytes: task.maxOutputBytes,
    maxProcesses: task.maxProcesses ?? DEFAULT_MAX_PROCESSES,
  };
}

/** How to start the hook in `process` isolation with `env` as its (whole) environment. */
export function processSpec(
  task: CommandTask,
  env: Readonly<Record<string, string>>,
  contain: Containment,
): LaunchSpec {
  const argv = programArgv(task);
  // A one-command shell line runs without its shell, as the shell would exec it (direct-exec.ts).
  const direct =
    task.program.kind === 'shell' && task.runAs === undefined ? directExec(argv, env, task.cwd) : undefined;
  return {
    ...baseSpec(task),
    argv: direct?.argv ?? argv,
    env: direct?.env ?? env,
    fd3: undefined,
    contain,
    dropCapabilities: true,
  };
}
