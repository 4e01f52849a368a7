// Isolation profile `namespace` (docs/security.md): a sandbox of its own, built by the spawn server
// from the plan of namespace-plan.ts — a read-only minimal filesystem (/usr and the /bin… links, a
// copy of harmless /etc entries, a minimal /dev, its own /proc, its scratch directory at /tmp, the
// sandbox root, a pack's directory), no network (its tenant's loopback only), its own pid, ipc, uts,
// cgroup and user namespaces, no capabilities, a cap on its processes, Landlock where the kernel has
// it, a new session, and it dies with its parent. With HOOKWARDEN_NAMESPACE=bwrap, bubblewrap builds
// the same plan instead (bwrap-profile.ts), the tests' cross-check.
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CommandTask } from '../../src/contract/command-task.js';
import { bwrapArgs, bwrapEnvArgs, findBwrap } from './bwrap-profile.js';
import { containmentFix } from './containment-support.js';
import type { LaunchSpec } from './launch.js';
import { namespaceSetting, spawnServerSetting } from './launcher.js';
import {
  ETC_ALLOWLIST,
  insidePath,
  insidePaths,
  type NamespacePlan,
  namespacePlan,
} from './namespace-plan.js';
import { baseSpec, programArgv } from './process-profile.js';
import { serverCheck } from './server-check.js';

export interface NamespaceSupport {
  readonly ok: boolean;
  /** Who builds the sandboxes: the spawn server, or bubblewrap (HOOKWARDEN_NAMESPACE=bwrap). */
  readonly builder: 'native' | 'bwrap';
  /** The spawn server: made once and kept (`prepared`, as root) or made by each hook (`built`). */
  readonly how?: 'prepared' | 'built';
  readonly bwrap?: string;
  /** Why it does not work, and how to fix it. */
  readonly reason?: string;
  readonly hint?: string;
}

/** Whether namespace sandboxes can be had here, by `builder` (the knob's, by default). */
export function namespaceSupport(builder: 'native' | 'bwrap' = namespaceSetting()): NamespaceSupport {
  const off = spawnServerSetting();
  if (off !== undefined)
    return {
      ok: false,
      builder,
      reason: `namespace sandboxes are built by the spawn server, which is turned off (${off})`,
      hint: 'unset HOOKWARDEN_SPAWN_SERVER',
    };
  const check = serverCheck();
  if (check === undefined)
    return {
      ok: false,
      builder,
      reason:
        'the spawn server, which builds namespace sandboxes, was not built (no C compiler at npm run build)',
      hint: 'install a C compiler (apt-get install -y gcc libc6-dev) and run npm run build',
    };
  if (builder === 'bwrap') {
    const b = findBwrap();
    return b.ok
      ? { ok: true, builder, bwrap: b.path }
      : {
          ok: false,
          builder,
          reason: b.reason,
          hint: 'install bubblewrap (apt-get install -y bubblewrap), or unset HOOKWARDEN_NAMESPACE',
        };
  }
  if (check.namespace.ok) return { ok: true, builder, how: check.namespace.how ?? 'prepared' };
  const why = check.namespace.reason ?? 'the check failed';
  return {
    ok: false,
    builder,
    reason: `the spawn server cannot build namespace sandboxes here: ${why}`,
    hint: containmentFix(why),
  };
}

/** The variables hookwarden sets to host paths. */
const PATH_VARIABLES = new Set([
  'HOME',
  'TMPDIR',
  'CLAUDE_ENV_FILE',
  'HOOK_PROJECT_DIR',
  'CLAUDE_PROJECT_DIR',
  'CLAUDE_PLUGIN_ROOT',
  'CLAUDE_PLUGIN_DATA',
  'HOOK_PACK_DIR',
]);

/**
 * The hook's environment as the sandbox sees it: hookwarden's path variables point where those paths
 * are inside; in the hidden layout one whose path the sandbox does not have is not passed.
 */
export function sandboxEnv(
  env: Readonly<Record<string, string>>,
  plan: NamespacePlan,
): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(env)) {
    if (!PATH_VARIABLES.has(name)) out[name] = value;
    else {
      const inside = insidePath(value, plan);
      if (inside !== undefined) out[name] = inside;
      else if (plan.layout === 'host') out[name] = value;
    }
  }
  return out;
}

/** The users and groups a tenant's sandbox knows: none of the host's accounts or home directories. */
const MINIMAL_USERS = {
  passwd: 'root:x:0:0:root:/tmp:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n',
  group: 'root:x:0:\nnogroup:x:65534:\n',
};

/**
 * Copies the allow-listed /etc entries (symlinks kept as symlinks) into `dest`, which namespace
 * sandboxes then see as /etc (the spawn server copies it into each template). Made once per
 * executor; a change to /etc afterwards is seen by a new executor. `minimalUsers` (a tenant's
 * sandbox): passwd and group name only root and nobody, not the host's accounts.
 */
export function snapshotEtc(dest: string, minimalUsers = false): void {
  mkdirSync(dest, { recursive: true, mode: 0o755 });
  for (const entry of ETC_ALLOWLIST) {
    const src = `/etc/${entry}`;
    const target = join(dest, entry);
    if (minimalUsers && (entry === 'passwd' || entry === 'group')) {
      writeFileSync(target, MINIMAL_USERS[entry], { mode: 0o644 });
      continue;
    }
    if (!existsSync(src)) continue;
    mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
    cpSync(src, target, { recursive: true, verbatimSymlinks: true, dereference: false });
  }
}

/** How to start the hook in `namespace` isolation, with `env` as its environment (host paths). */
export function namespaceSpec(
  task: CommandTask,
  env: Readonly<Record<string, string>>,
  support: NamespaceSupport,
): LaunchSpec {
  const plan = namespacePlan(task);
  const inside = sandboxEnv(env, plan);
  const hidden = plan.layout === 'hidden';
  const program = programArgv(task).map((a) => (hidden ? insidePaths(a, plan) : a));
  // Its input names files where the sandbox has them (a tool's file_path under the root, the cwd).
  const base = { ...baseSpec(task), ...(hidden ? { stdin: insidePaths(task.stdin, plan) } : {}) };
  if (support.builder === 'bwrap' && support.bwrap !== undefined) {
    return {
      ...base,
      argv: [...bwrapArgs(support.bwrap, plan), ...program],
      env: undefined,
      fd3: bwrapEnvArgs(inside),
      contain: 'off',
      dropCapabilities: false,
    };
  }
  return {
    ...base,
    cwd: plan.cwd,
    argv: program,
    env: inside,
    fd3: undefined,
    contain: 'off',
    dropCapabilities: true,
    namespace: { key: task.sandboxKey ?? '', ops: plan.ops },
  };
}
