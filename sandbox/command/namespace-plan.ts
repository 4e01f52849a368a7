// What a `namespace` hook sees (docs/security.md, "What a namespace sandbox contains"), computed in one
// place from its task: the mount plan the spawn server carries out (sandbox/native/spawn-ns.h), and
// where the host's paths are inside. bubblewrap reads the same plan (bwrap-profile.ts), so that the
// tests can check one against the other.
//
// Two phases: the template (a read-only root with /usr, the /bin… links, a copy of harmless /etc
// entries and a minimal /dev), the same for every hook of an executor and built once by the server;
// and the hook's own (its /proc, its scratch directory at /tmp, the sandbox root, a pack's directory).
//
// Two layouts. `host`: the sandbox root and a pack's directory are at their own paths, as a user's
// project hook expects (a file path in its input is where it says). `hidden`, for a tenant's own hooks:
// nothing of the operator's layout, the root at /project and a pack at /pack, and the variables and
// arguments that named host paths name those instead (or are dropped, for a path not in the sandbox).
// Either way HOME and TMPDIR are /tmp, the hook's scratch directory.
import { lstatSync } from 'node:fs';
import type { CommandTask } from '../../src/contract/command-task.js';

export type MountOp =
  | {
      readonly op: 'bind';
      readonly src: string;
      readonly dst: string;
      readonly rw?: boolean;
      /** A source that does not exist is skipped. */
      readonly optional?: boolean;
      readonly perHook?: boolean;
    }
  | { readonly op: 'symlink'; readonly target: string; readonly dst: string }
  | { readonly op: 'copy'; readonly src: string; readonly dst: string }
  | { readonly op: 'dev'; readonly dst: string }
  | { readonly op: 'proc'; readonly dst: string; readonly perHook: true };

export interface NamespacePlan {
  readonly ops: readonly MountOp[];
  /** The hook's working directory inside: the sandbox root. */
  readonly cwd: string;
  /** Host paths and where they are inside, longest host path first. */
  readonly paths: readonly (readonly [host: string, inside: string])[];
  /** The layout (see the top of this file). */
  readonly layout: 'host' | 'hidden';
}

/** Where the scratch directory (HOME, TMPDIR) is inside. */
const SCRATCH_INSIDE = '/tmp';
const HIDDEN_ROOT = '/project';
const HIDDEN_PACK = '/pack';

/** /etc entries a program commonly needs; nothing secret (no shadow, no keys, no tokens). */
export const ETC_ALLOWLIST = [
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

let system: readonly MountOp[] | undefined;

/** /usr and how the host lays out /bin, /lib…: links into /usr (merged /usr) or directories (read once). */
function systemOps(): readonly MountOp[] {
  if (system !== undefined) return system;
  const ops: MountOp[] = [{ op: 'bind', src: '/usr', dst: '/usr' }];
  for (const name of USR_LINKS) {
    try {
      const st = lstatSync(`/${name}`);
      if (st.isSymbolicLink()) ops.push({ op: 'symlink', target: `usr/${name}`, dst: `/${name}` });
      else if (st.isDirectory()) ops.push({ op: 'bind', src: `/${name}`, dst: `/${name}` });
    } catch {
      // absent on this host
    }
  }
  system = Object.freeze(ops);
  return system;
}

/** The template phase: the same for every hook of an executor (one /etc snapshot). */
function templateOps(etcDir: string | undefined): MountOp[] {
  const etc: MountOp[] =
    etcDir !== undefined
      ? [{ op: 'copy', src: etcDir, dst: '/etc' }]
      : ETC_ALLOWLIST.map((e) => ({ op: 'bind', src: `/etc/${e}`, dst: `/etc/${e}`, optional: true }));
  return [...systemOps(), ...etc, { op: 'dev', dst: '/dev' }];
}

/** The plan of `task`'s sandbox, in the layout its task asks for. */
export function namespacePlan(task: CommandTask): NamespacePlan {
  const layout = task.hidePaths === true ? 'hidden' : 'host';
  // The root at its own path, unless that is / (it would cover the sandbox's own root).
  const root = layout === 'hidden' || task.cwd === '/' ? HIDDEN_ROOT : task.cwd;
  const pack = task.packDir === undefined ? undefined : layout === 'hidden' ? HIDDEN_PACK : task.packDir;
  const hookOps: MountOp[] = [
    { op: 'proc', dst: '/proc', perHook: true },
    { op: 'bind', src: task.scratchDir, dst: SCRATCH_INSIDE, rw: true, perHook: true },
    { op: 'bind', src: task.cwd, dst: root, rw: task.writable, perHook: true },
    // A pack's scripts after the root: read-only even inside a writable root.
    ...(task.packDir === undefined || pack === undefined
      ? []
      : [{ op: 'bind', src: task.packDir, dst: pack, perHook: true } as const]),
  ];
  const paths: [string, string][] = [
    [task.scratchDir, SCRATCH_INSIDE],
    [task.cwd, root],
  ];
  if (task.packDir !== undefined && pack !== undefined) paths.push([task.packDir, pack]);
  paths.sort((a, b) => b[0].length - a[0].length);
  return { ops: [...templateOps(task.etcDir), ...hookOps], cwd: root, paths, layout };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` with every host path of the plan, where it stands as a path (not inside a longer name),
 * replaced by where it is inside.
 */
export function insidePaths(text: string, plan: NamespacePlan): string {
  let out = text;
  for (const [host, inside] of plan.paths) {
    if (host === '/' || host === inside) continue;
    const re = new RegExp(`(^|[^A-Za-z0-9._/-])${escapeRegExp(host)}(?=$|/|[^A-Za-z0-9._-])`, 'g');
    out = out.replace(re, (_m, before: string) => `${before}${inside}`);
  }
  return out;
}

/** A path inside the sandbox for a host path, or undefined when the sandbox does not have it. */
export function insidePath(path: string, plan: NamespacePlan): string | undefined {
  for (const [host, inside] of plan.paths) {
    if (path === host) return inside;
    if (path.startsWith(`${host}/`)) return `${inside}${path.slice(host.length)}`;
  }
  return undefined;
}
