// Isolation profile `namespace` (docs/security.md): bubblewrap. The hook sees a minimal, read-only view of
// the host — /usr (and the /bin, /lib… links to it), a copy of a short list of harmless /etc files,
// the sandbox root (read-only unless `writable`), its scratch HOME/TMPDIR (read-write) — plus a private /proc,
// /dev and /tmp. It has no network (a private loopback only), its own pid/ipc/uts/user/cgroup
// namespaces, no capabilities, a new session (no TIOCSTI into a terminal), and dies with its parent;
// when the namespace's init dies the kernel kills everything in it, daemons included. Secrets
// elsewhere on the host (home directories, /etc/shadow, other projects) are simply not there.
//
// bwrap itself runs on the host, before any namespace exists, so it gets an empty environment
// (docs/security.md, invariant 5) and the hook's variables come in as `--clearenv --setenv NAME VALUE…` read
// from fd 3 (`--args 3`): they are neither in bwrap's environment nor in its world-readable
// /proc/<pid>/cmdline, and bwrap closes the descriptor before the hook starts.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, cpSync, existsSync, lstatSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CommandTask } from '../../src/contract/command-task.js';
import type { LaunchSpec } from './launch.js';
import { baseSpec, programArgv } from './process-profile.js';

const BWRAP_CANDIDATES = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];

/** /etc entries a program commonly needs; nothing secret (no shadow, no keys, no tokens). */
const ETC_ALLOWLIST = [
  'passwd',
  'group',
  'nsswitch.conf',
  'hosts',
  'host.conf',
  'localtime',
  'timezone',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'ssl/certs',
  'ca-certificates',
  'ca-certificates.conf',
  'mime.types',
  'protocols',
  'services',
  'os-release',
  'debian_version',
  'magic',
  'terminfo',
];

const USR_LINKS = ['bin', 'sbin', 'lib', 'lib64', 'lib32', 'libx32'];

export interface NamespaceSupport {
  readonly ok: boolean;
  readonly bwrap: string | undefined;
  /** Why it does not work, and how to fix it. */
  readonly reason?: string;
  readonly hint?: string;
}

let probed: NamespaceSupport | undefined;

function findBwrap(): string | undefined {
  // An explicit location (e.g. a bwrap outside PATH) wins; it must exist like any other.
  const explicit = process.env.HOOKWARDEN_BWRAP;
  const candidates = explicit !== undefined && explicit !== '' ? [explicit] : BWRAP_CANDIDATES;
  return candidates.find((p) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Whether bubblewrap is installed and can create the namespaces here (probed once, then cached). */
export function namespaceSupport(): NamespaceSupport {
  if (probed !== undefined) return probed;
  const bwrap = findBwrap();
  if (bwrap === undefined) {
    probed = {
      ok: false,
      bwrap,
      reason: `bubblewrap (bwrap) is not installed${process.env.HOOKWARDEN_BWRAP ? ` at ${process.env.HOOKWARDEN_BWRAP} (HOOKWARDEN_BWRAP)` : ''}`,
      hint: 'install the bubblewrap package: apt-get install -y bubblewrap',
    };
    return probed;
  }
  const r = spawnSync(
    bwrap,
    // --clearenv: every hook needs it (bubblewrap ≥ 0.5); an older one is reported here, not per hook.
    ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '--cap-drop', 'ALL', '--clearenv', 'true'],
    {
      encoding: 'utf8',
      timeout: 10_000,
      env: {},
    },
  );
  if (r.status === 0) probed = { ok: true, bwrap };
  else {
    const why = (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n')[0];
    probed = {
      ok: false,
      bwrap,
      reason: `bubblewrap cannot create namespaces here: ${why}`,
      hint: 'user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces>0) or blocked by the container runtime (seccomp/AppArmor); run hookwarden where they are allowed',
    };
  }
  return probed;
}

let mounts: readonly string[] | undefined;

/** How the host lays out /bin, /lib…: links into /usr (merged /usr) or real directories (read once). */
function systemMounts(): readonly string[] {
  if (mounts !== undefined) return mounts;
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const name of USR_LINKS) {
    try {
      const st = lstatSync(`/${name}`);
      if (st.isSymbolicLink()) args.push('--symlink', `usr/${name}`, `/${name}`);
      else if (st.isDirectory()) args.push('--ro-bind', `/${name}`, `/${name}`);
    } catch {
      // absent on this host
    }
  }
  mounts = args;
  return args;
}

/**
 * Copies the allow-listed /etc entries (symlinks kept as symlinks) into `dest`, which namespace
 * sandboxes then see as /etc: one bind mount instead of one per file (each costs ~50 µs of every
 * hook's start). Made once per executor; a change to /etc afterwards is seen by a new executor.
 */
export function snapshotEtc(dest: string): void {
  mkdirSync(dest, { recursive: true, mode: 0o755 });
  for (const entry of ETC_ALLOWLIST) {
    const src = `/etc/${entry}`;
    if (!existsSync(src)) continue;
    const target = join(dest, entry);
    mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
    cpSync(src, target, { recursive: true, verbatimSymlinks: true, dereference: false });
  }
}

/**
 * The bubblewrap argv (ending with `--`) that confines `task` in a namespace sandbox. The hook's
 * environment is not in it: bwrap reads it from fd 3 (`bwrapEnvArgs`).
 */
function bwrapArgs(bwrap: string, task: CommandTask): string[] {
  return [
    bwrap,
    ...systemMounts(),
    ...(task.etcDir !== undefined
      ? ['--ro-bind', task.etcDir, '/etc']
      : ETC_ALLOWLIST.flatMap((e) => ['--ro-bind-try', `/etc/${e}`, `/etc/${e}`])),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    // A pack's scripts, read-only at their own path: after /tmp (a pack under /tmp shows too), before
    // the root and scratch mounts (which stay as they are if they lie inside the pack).
    ...(task.packDir === undefined ? [] : ['--ro-bind', task.packDir, task.packDir]),
    task.writable ? '--bind' : '--ro-bind',
    task.cwd,
    task.cwd,
    '--bind',
    task.scratchDir,
    task.scratchDir,
    // A tenant's granted `writable`: its own folder, never the root (command-task.ts).
    ...(task.writableDir === undefined ? [] : ['--bind', task.writableDir, task.writableDir]),
    '--chdir',
    task.cwd,
    '--unshare-all',
    '--hostname',
    'hookwarden',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--args',
    '3',
    '--',
  ];
}

/** bwrap's `--args` data: the hook's whole environment, as NUL-separated arguments. */
function bwrapEnvArgs(env: Readonly<Record<string, string>>): Buffer {
  const args = ['--clearenv', ...Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v])];
  return Buffer.from(args.map((a) => `${a}\0`).join(''));
}

/** How to start the hook in `namespace` isolation: bubblewrap, then the hook, under the rlimits. */
export function namespaceSpec(
  task: CommandTask,
  bwrap: string,
  env: Readonly<Record<string, string>>,
): LaunchSpec {
  return {
    ...baseSpec(task),
    argv: [...bwrapArgs(bwrap, task), ...programArgv(task)],
    env: undefined,
    fd3: bwrapEnvArgs(env),
    // bubblewrap makes its own namespaces (more of them) and drops its own capabilities.
    contain: 'off',
    dropCapabilities: false,
  };
}
