import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containmentFix } from '../../../sandbox/command/containment-support.js';
import { ProcessGroups } from '../../../sandbox/command/kill-group.js';
import {
  chooseLauncher,
  containmentSetting,
  createLauncher,
  type LauncherChoice,
} from '../../../sandbox/command/launcher.js';
import { namespaceSupport } from '../../../sandbox/command/namespace-profile.js';
import { runCommand } from '../../../sandbox/command/run-command.js';
import type { CommandOutcome, CommandTask } from '../../contract/command-task.js';
import { createExecutor } from '../../executor/executor.js';
import { guardHostProcess } from '../../native/host-guard.js';
import { defaultScratchBase } from '../../pool/scratch.js';
import { clientCheck } from './doctor-client.js';
import { installChecks } from './doctor-installs.js';

/** The checks that are isolation levels (the others: the client, the agents' hook files). */
const ISOLATION = /^(?!hookwarden-client$)(?!.* hooks$)/;

interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly fix?: string;
}

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

async function commandChecks(): Promise<Check[]> {
  const groups = new ProcessGroups();
  const scratch = mkdtempSync(join(tmpdir(), 'hookwarden-doctor-'));
  const choice = chooseLauncher();
  const launcher = createLauncher(choice);
  const off = containmentSetting();
  const run = (extra: Partial<CommandTask>) =>
    runCommand(task(extra, scratch), groups, undefined, launcher, off);
  const checks: Check[] = [spawnCheck(choice)];
  try {
    const plain = await run({});
    checks.push(processCheck(choice, plain), containmentCheck(plain), guardCheck());
    const ns = namespaceSupport();
    if (!ns.ok)
      checks.push({
        name: 'namespace isolation',
        ok: false,
        detail: ns.reason ?? 'unavailable',
        ...(ns.hint ? { fix: ns.hint } : {}),
      });
    else {
      const r = await run({ isolation: 'namespace' });
      const ok = r.kind === 'exited' && r.exitCode === 0;
      checks.push(
        ok
          ? {
              name: 'namespace isolation',
              ok,
              detail: `bubblewrap (${ns.bwrap}): no network, minimal read-only filesystem, own pid namespace`,
            }
          : {
              name: 'namespace isolation',
              ok,
              detail: described(r),
              fix: 'check that bubblewrap can create user namespaces here',
            },
      );
    }
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
  } finally {
    groups.dispose();
    await launcher.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  return checks;
}

async function jsCheck(): Promise<Check> {
  const executor = await createExecutor({
    config: {
      hooks: {
        SessionStart: [
          { hooks: [{ type: 'js', code: "export default () => ({ additionalContext: 'ok' })" }] },
        ],
      },
    },
    limits: { jsThreads: 1 },
    onWarning: () => {},
  });
  try {
    const r = await executor.dispatch('SessionStart', {
      sessionId: 'doctor',
      cwd: '/',
      timestamp: new Date().toISOString(),
    });
    const ok = r.additionalContext === 'ok';
    return ok
      ? { name: 'JS hooks (QuickJS)', ok, detail: 'QuickJS isolates on Piscina worker threads' }
      : {
          name: 'JS hooks (QuickJS)',
          ok,
          detail: r.hooks[0]?.error?.message ?? 'no answer',
          fix: 'reinstall: npm ci && npm run build',
        };
  } catch (err) {
    return {
      name: 'JS hooks (QuickJS)',
      ok: false,
      detail: (err as Error).message,
      fix: 'reinstall: npm ci && npm run build',
    };
  } finally {
    await executor.close();
  }
}

export async function runDoctor(flags: { json?: boolean }): Promise<number> {
  const base = defaultScratchBase();
  const checks = [
    ...(await commandChecks()),
    await jsCheck(),
    {
      name: 'scratch directories',
      ok: true,
      detail: `under ${base}${base === tmpdir() ? ' (not a tmpfs: slower)' : ' (tmpfs)'}`,
    },
    clientCheck(),
    ...(await installChecks()),
  ];
  const ok = checks.every((c) => c.ok);
  if (flags.json === true) {
    process.stdout.write(`${JSON.stringify({ ok, node: process.version, checks }, null, 2)}\n`);
    return ok ? 0 : 1;
  }
  process.stdout.write(`hookwarden doctor — Node ${process.version}, ${process.platform}/${process.arch}\n`);
  for (const c of checks) {
    process.stdout.write(`${c.ok ? '✓' : '✗'} ${c.name.padEnd(22)} ${c.detail}\n`);
    if (c.fix !== undefined) process.stdout.write(`  ${' '.repeat(22)} fix: ${c.fix}\n`);
  }
  process.stdout.write(
    ok
      ? 'all isolation levels work here\n'
      : checks.every((c) => c.ok || !ISOLATION.test(c.name))
        ? "all isolation levels work here; see above for the client and the agents' hooks\n"
        : 'some isolation levels do not work here (see above)\n',
  );
  return ok ? 0 : 1;
}
