// Isolation profile `process` (DESIGN §5): the hook runs in its own process group (spawned detached)
// under rlimits applied by prlimit(1) — CPU seconds, open files, file size, and address space only
// when asked (it breaks hooks written in Node or Java). prlimit execs the hook in place, so the hook
// keeps the process group and PID that hookwarden kills.
import { accessSync, constants } from 'node:fs';
import type { CommandTask } from '../../src/contract/command-task.js';

const CANDIDATES = ['/usr/bin/prlimit', '/bin/prlimit', '/usr/local/bin/prlimit'];
let prlimitPath: string | null | undefined;

/** Path of prlimit(1), or null when it is not installed (util-linux). */
export function findPrlimit(): string | null {
  if (prlimitPath !== undefined) return prlimitPath;
  prlimitPath = null;
  for (const c of CANDIDATES) {
    try {
      accessSync(c, constants.X_OK);
      prlimitPath = c;
      break;
    } catch {}
  }
  return prlimitPath;
}

/** The argv that runs `task.program` under its rlimits: [file, ...args]. */
export function processArgv(task: CommandTask, prlimit: string): string[] {
  const r = task.rlimits;
  const cpu = r.cpuSeconds > 0 ? r.cpuSeconds : Math.ceil(task.deadlineMs / 1000) + 1;
  const limits = [`--cpu=${cpu}`, `--nofile=${r.openFiles}`, `--fsize=${r.fileSizeBytes}`];
  if (r.addressSpaceBytes !== undefined) limits.push(`--as=${r.addressSpaceBytes}`);
  const program =
    task.program.kind === 'shell' ? ['/bin/sh', '-c', task.program.command] : [...task.program.argv];
  return [prlimit, ...limits, '--', ...program];
}
