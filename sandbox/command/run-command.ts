// The subprocess runner (docs/security.md): builds a command hook's environment, says how to start it in
// its isolation (process-profile.ts, namespace-profile.ts), and hands it to a launcher — the spawn
// server, or child_process.spawn where that was not built (launcher.ts) — under supervision
// (supervise.ts: the HookInput on stdin without ever blocking on it, capped output, the whole
// process group killed on timeout, abort, flood and exit). Only the hook itself, past the machinery
// that starts it (the spawn server or wrapper, and bwrap), gets its variables.
import { chownSync, closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CommandOutcome,
  type CommandTask,
  ENV_FILE_MAX_BYTES,
  ENV_FILE_NAME,
} from '../../src/contract/command-task.js';
import { buildHookEnv } from './env.js';
import type { ProcessGroups } from './kill-group.js';
import type { Launcher, LaunchSpec } from './launch.js';
import { type NamespaceSupport, namespaceSpec, namespaceSupport } from './namespace-profile.js';
import { closedToNobody } from './nobody-access.js';
import { NOBODY, processSpec } from './process-profile.js';
import { spawnCapProblem } from './spawn-wire.js';
import { supervise } from './supervise.js';

/** How to start the task in its isolation, or why that isolation is not available (never weaker). */
function commandSpec(
  task: CommandTask,
  env: Readonly<Record<string, string>>,
  settings: SandboxSettings,
  launcher: Launcher,
): { spec: LaunchSpec } | { unavailable: string } {
  const containmentOff = settings.containmentOff;
  if (task.runAs === 'nobody' && process.getuid?.() !== 0) {
    return {
      unavailable: 'runAs "nobody" needs hookwarden to run as root (it switches the hook to uid 65534)',
    };
  }
  const closed = task.runAs === 'nobody' ? closedToNobody(task.cwd) : undefined;
  if (closed !== undefined) {
    return {
      unavailable: `runAs "nobody": the sandbox root ${task.cwd} is closed to nobody (${closed.dir} is mode ${closed.mode.toString(8)}). Give hooks that run as nobody a root every user can enter (e.g. --root /srv/hooks, mode 755). The hook was not run.`,
    };
  }
  if (task.isolation === 'process') {
    if (task.containment === 'require' && containmentOff !== undefined) {
      return {
        unavailable: `the hook must run contained (limits.minIsolation "contained"), and containment is turned off (${containmentOff}). The hook was not run.`,
      };
    }
    const contain =
      task.containment === 'require' ? 'require' : containmentOff === undefined ? 'prefer' : 'off';
    return { spec: processSpec(task, env, contain) };
  }
  const ns = settings.namespace ?? namespaceSupport();
  if (!ns.ok || launcher.kind !== 'spawn-server') {
    const why = ns.ok
      ? 'namespace sandboxes are built by the spawn server, and this hook starts through Node'
      : ns.reason;
    const fix = ns.ok ? 'unset HOOKWARDEN_SPAWN_SERVER' : ns.hint;
    return {
      unavailable: `isolation "namespace" is not available: ${why}. Fix: ${fix}. The hook was not run.`,
    };
  }
  return { spec: namespaceSpec(task, env, ns) };
}

/** What the operator's knobs say, read once when an executor's command lane starts (launcher.ts). */
export interface SandboxSettings {
  /** Why process-mode containment is turned off (HOOKWARDEN_CONTAINMENT=off), if it is. */
  readonly containmentOff?: string | undefined;
  /** Who builds namespace sandboxes, and whether they can be had (namespace-profile.ts). */
  readonly namespace?: NamespaceSupport | undefined;
  /** The sandbox knobs set (knobs.ts), for the record. */
  readonly knobs?: readonly string[] | undefined;
}

const notRun = (kind: 'aborted' | 'spawn_failed' | 'isolation_unavailable', message: string) =>
  Promise.resolve<CommandOutcome>({ kind, message, stderr: '', durationMs: 0 });

/**
 * Runs the task. `settings`: what the operator's knobs say (default: none set). With containment
 * turned off, process-mode hooks run uncontained, and those that require it fail.
 */
export function runCommand(
  task: CommandTask,
  groups: ProcessGroups,
  signal: AbortSignal | undefined,
  launcher: Launcher,
  settings: SandboxSettings = {},
): Promise<CommandOutcome> {
  if (signal?.aborted) return notRun('aborted', 'aborted before start');
  const env = buildHookEnv(task, task.hostEnv);
  if (!env.ok) return notRun('spawn_failed', env.message);
  const containmentOff = settings.containmentOff;
  const how = commandSpec(task, env.env, settings, launcher);
  if ('unavailable' in how) return notRun('isolation_unavailable', how.unavailable);
  const tooBig = spawnCapProblem(how.spec);
  if (tooBig !== undefined) return notRun('spawn_failed', `cannot start the hook: ${tooBig}`);
  // A NUL would end a string early on the way to exec: refused, whichever launcher runs it.
  if (how.spec.cwd.includes('\0') || how.spec.argv.some((a) => a.includes('\0'))) {
    return notRun(
      'spawn_failed',
      'cannot start the hook: its command, arguments or directory contain null bytes',
    );
  }
  if (task.runAs === 'nobody') {
    try {
      chownSync(task.scratchDir, NOBODY, NOBODY);
    } catch (err) {
      const message = `cannot hand the scratch directory to nobody: ${(err as Error).message}`;
      return notRun('isolation_unavailable', message);
    }
  }
  let outcome = supervise(task, how.spec, groups, signal, launcher, settings.knobs);
  if (containmentOff !== undefined && how.spec.contain === 'off' && task.isolation === 'process')
    outcome = outcome.then((o) => withReason(o, `containment is turned off (${containmentOff})`));
  return task.envFile === true ? outcome.then((o) => withEnvFile(o, task.scratchDir)) : outcome;
}

/** Says why an uncontained hook is (the launcher was not asked, so it did not say). */
function withReason(outcome: CommandOutcome, reason: string): CommandOutcome {
  const s = outcome.sandbox;
  if (s === undefined || s.containment !== 'uncontained' || s.uncontainedReason !== undefined) return outcome;
  return { ...outcome, sandbox: { ...s, uncontainedReason: reason } };
}

/**
 * What the hook wrote to CLAUDE_ENV_FILE. Hook-controlled: read only if it is a regular file with one
 * link (never through a symlink or hard link to a file the host can read and the hook cannot),
 * without blocking (a FIFO), and at most ENV_FILE_MAX_BYTES.
 */
function withEnvFile(outcome: CommandOutcome, scratchDir: string): CommandOutcome {
  if (outcome.kind !== 'exited') return outcome;
  let fd: number | undefined;
  try {
    fd = openSync(
      join(scratchDir, ENV_FILE_NAME),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    const st = fstatSync(fd);
    if (!st.isFile() || st.nlink !== 1) return outcome;
    const buf = Buffer.alloc(Math.min(st.size, ENV_FILE_MAX_BYTES));
    const n = readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('utf8');
    return st.size > n
      ? { ...outcome, envFileText: text, envFileTruncated: true }
      : { ...outcome, envFileText: text };
  } catch {
    return outcome; // not written (or not a file we read)
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
