// `hookwarden doctor`'s sandbox checks: which launcher starts command hooks, and for each isolation
// level a real hook through the real runner — process, contained, namespace, runAs nobody — plus
// what holds them (the process cap, Landlock) and the knobs in use (doctor-knobs.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containmentFix } from '../../../sandbox/command/containment-support.js';
import { ProcessGroups } from '../../../sandbox/command/kill-group.js';
import { knobsInUse } from '../../../sandbox/command/knobs.js';
import {
  chooseLauncher,
  containmentSetting,
  createLauncher,
  type LauncherChoice,
} from '../../../sandbox/command/launcher.js';
import { type NamespaceSupport, namespaceSupport } from '../../../sandbox/command/namespace-profile.js';
import { runCommand } from '../../../sandbox/command/run-command.js';
import type { CommandOutcome, CommandTask } from '../../contract/command-task.js';
import { guardHostProcess } from '../../native/host-guard.js';
import type { Check } from './doctor-check.js';
import { bwrapCheck, capCheck, knobsCheck, landlockCheck } from './doctor-knobs.js';

function task(extra: Partial<CommandTask>, scratchDir: string): CommandTask {
  return {
    program: { kind: 'shell', command: 'id -u' },
    cwd: tmpdir(),
    scratchDir,
    env: { HOOK_EVENT: 'doctor' },
    inheritEnv: [],
    stdin: '{}',
    deadlineMs: 10_000,
    killGraceMs: 200,
    maxOutputBytes: 4096,
    rlimits: { cpuSeconds: 0, openFiles: 64, fileSizeBytes: 1 << 20, addressSpaceBytes: undefined },
    isolation: 'process',
    containment: 'prefer',
    writable: false,
    runAs: undefined,
    ...extra,
  };
}

const described = (o: CommandOutcome) =>
  o.kind === 'exited'
    ? `exit ${o.exitCode}${o.stderr.trim() ? `: ${o.stderr.trim().split('\n')[0]}` : ''}`
    : o.message;

/** Which launcher starts command hooks, and what the fallback costs. */
function spawnCheck(choice: LauncherChoice): Check {
  if (choice.kind === 'spawn-server') {
    return {
      name: 'command hook spawning',
      ok: true,
      detail: `spawn server (${choice.path}): hooks start from a small clean process; the main thread never forks`,
    };
  }
  return {
    name: 'command hook spawning',
    ok: true,
    detail: `Node child_process.spawn on the main thread, because ${choice.reason}: every hook start forks the whole Node process (~1–2 ms of blocked event loop each, far more under load; docs/spawning.md)`,
    fix: choice.fix,
  };
}

function processCheck(choice: LauncherChoice, plain: CommandOutcome): Check {
  const ok = plain.kind === 'exited' && plain.exitCode === 0;
  if (!ok) {
    return {
      name: 'process isolation',
      ok,
      detail: described(plain),
      fix: 'install util-linux (prlimit) or a C compiler for the native helpers, then npm run build',
    };
  }
  if (choice.kind === 'spawn-server' || choice.wrapper?.kind === 'hw-exec') {
    const by = choice.kind === 'spawn-server' ? 'spawn server' : 'hw-exec helper';
    return {
      name: 'process isolation',
      ok,
      detail: `own process group, rlimits, no_new_privs, parent-death signal (${by})`,
    };
  }
  return {
    name: 'process isolation',
    ok,
    detail: 'own process group, rlimits via prlimit(1); no no_new_privs or parent-death signal',
    fix: 'build the native helpers: install a C compiler (apt-get install -y gcc libc6-dev) and run npm run build',
  };
}

/** Whether process-mode hooks run contained here (a real hook), and if not why and how to fix it. */
function containmentCheck(r: CommandOutcome): Check {
  const s = r.sandbox;
  if (s?.containment === 'contained')
    return {
      name: 'process containment',
      ok: true,
      detail:
        'process-mode hooks run in user, PID, mount and IPC namespaces of their own with a private /proc and no capabilities: they see and signal only their own processes',
    };
  const reason = s?.uncontainedReason ?? described(r);
  return {
    name: 'process containment',
    ok: false,
    detail: `process-mode hooks run UNCONTAINED here (${reason}): they see this host's processes and can signal those of their user; limits.minIsolation "contained" makes them fail closed instead`,
    fix: containmentFix(reason),
  };
}

/** Whether hookwarden's own process is kept out of its hooks' reach (src/native/host-guard.ts). */
function guardCheck(): Check {
  const g = guardHostProcess();
  return g.guarded
    ? {
        name: 'own secrets',
        ok: true,
        detail:
          "hookwarden's processes are not dumpable: no hook of this user reads their environment or memory",
      }
    : {
        name: 'own secrets',
        ok: false,
        detail: `hookwarden's process is dumpable (${g.reason}): an uncontained hook of this user can read its environment`,
        fix: 'install a C compiler (apt-get install -y gcc libc6-dev) and run npm run build',
      };
}

/** Whether namespace sandboxes work here: a real hook in one, and who builds them. */
async function namespaceCheck(ns: NamespaceSupport, run: () => Promise<CommandOutcome>): Promise<Check> {
  const name = 'namespace isolation';
  if (!ns.ok)
    return { name, ok: false, detail: ns.reason ?? 'unavailable', ...(ns.hint ? { fix: ns.hint } : {}) };
  const r = await run();
  if (r.kind !== 'exited' || r.exitCode !== 0)
    return { name, ok: false, detail: described(r), fix: 'check that this user may create namespaces here' };
  const by =
    ns.builder === 'bwrap'
      ? `bubblewrap (${ns.bwrap}, HOOKWARDEN_NAMESPACE=bwrap) started by the spawn server`
      : ns.how === 'prepared'
        ? 'the spawn server (templates and network namespaces made once and kept)'
        : 'the spawn server (each hook builds its own: hookwarden is not root)';
  return {
    name,
    ok: true,
    detail: `built by ${by}: a read-only minimal filesystem, no /sys, a read-only /proc/sys, its own PID, mount, IPC, UTS, cgroup, user and network namespaces (its tenant's loopback only)`,
  };
}

export async function commandChecks(): Promise<Check[]> {
  const groups = new ProcessGroups();
  const scratch = mkdtempSync(join(tmpdir(), 'hookwarden-doctor-'));
  const choice = chooseLauncher();
  const launcher = createLauncher(choice);
  const settings = { containmentOff: containmentSetting(), knobs: knobsInUse() };
  const run = (extra: Partial<CommandTask>) =>
    runCommand(task(extra, scratch), groups, undefined, launcher, settings);
  const checks: Check[] = [spawnCheck(choice)];
  try {
    const plain = await run({});
    checks.push(processCheck(choice, plain), containmentCheck(plain), guardCheck());
    const ns = namespaceSupport();
    checks.push(await namespaceCheck(ns, () => run({ isolation: 'namespace' })));
    if (process.getuid?.() !== 0) {
      checks.push({
        name: 'runAs "nobody"',
        ok: false,
        detail: 'hookwarden is not running as root',
        fix: 'run hookwarden as root to switch hooks to uid 65534',
      });
    } else {
      const r = await run({ runAs: 'nobody' });
      const ok = r.kind === 'exited' && r.exitCode === 0 && r.stdout.trim() === '65534';
      checks.push(
        ok
          ? { name: 'runAs "nobody"', ok, detail: 'hooks can run as the host user nobody (uid 65534)' }
          : {
              name: 'runAs "nobody"',
              ok,
              detail: described(r),
              fix: 'the helper and the sandbox root must be readable by nobody',
            },
      );
    }
    checks.push(capCheck(), landlockCheck(), knobsCheck(), bwrapCheck());
  } finally {
    groups.dispose();
    await launcher.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  return checks;
}
