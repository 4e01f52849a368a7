// The same namespace plan (namespace-plan.ts) rendered for bubblewrap: the cross-check of the tests
// (HOOKWARDEN_NAMESPACE=bwrap; the hostile corpus runs under both and must agree), never a
// dependency. The spawn server still starts bwrap, so the process cap applies to it too.
//
// bwrap itself runs on the host, before any namespace exists, so it gets an empty environment
// (docs/security.md, invariant 5) and the hook's variables come in as `--clearenv --setenv NAME VALUE…`
// read from fd 3 (`--args 3`): they are neither in bwrap's environment nor in its world-readable
// /proc/<pid>/cmdline, and bwrap closes the descriptor before the hook starts.

import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { untrustedProgram } from './knobs.js';
import type { NamespacePlan } from './namespace-plan.js';

const BWRAP_CANDIDATES = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];
/** /proc entries bound read-only over the sandbox's own, as the spawn server masks them. */
const PROC_READ_ONLY = ['sys', 'sysrq-trigger', 'bus', 'fs', 'irq'];

export type BwrapFound =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly reason: string };

const probed = new Map<string, BwrapFound>();

/**
 * bubblewrap: HOOKWARDEN_BWRAP when set (a trusted absolute path, knobs.ts), else the usual places;
 * then one run that checks it can make namespaces here (cached per path).
 */
export function findBwrap(): BwrapFound {
  const explicit = process.env.HOOKWARDEN_BWRAP;
  if (explicit !== undefined && explicit !== '') {
    const untrusted = untrustedProgram(explicit);
    if (untrusted !== undefined) return { ok: false, reason: `HOOKWARDEN_BWRAP is refused: ${untrusted}` };
  }
  const path =
    explicit !== undefined && explicit !== ''
      ? explicit
      : BWRAP_CANDIDATES.find((p) => {
          try {
            accessSync(p, constants.X_OK);
            return true;
          } catch {
            return false;
          }
        });
  if (path === undefined) return { ok: false, reason: 'bubblewrap (bwrap) is not installed' };
  const hit = probed.get(path);
  if (hit !== undefined) return hit;
  const r = spawnSync(
    path,
    ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', '--cap-drop', 'ALL', '--clearenv', 'true'],
    { encoding: 'utf8', timeout: 10_000, env: {} },
  );
  const found: BwrapFound =
    r.status === 0
      ? { ok: true, path }
      : {
          ok: false,
          reason: `bubblewrap cannot create namespaces here: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n')[0]}`,
        };
  probed.set(path, found);
  return found;
}

/** The bubblewrap argv (ending with `--`) for `plan`. The hook's environment is not in it (fd 3). */
export function bwrapArgs(bwrap: string, plan: NamespacePlan): string[] {
  const args = [bwrap];
  for (const o of plan.ops) {
    if (o.op === 'bind')
      args.push(`--${o.rw === true ? '' : 'ro-'}bind${o.optional === true ? '-try' : ''}`, o.src, o.dst);
    else if (o.op === 'symlink') args.push('--symlink', o.target, o.dst);
    else if (o.op === 'copy') args.push('--ro-bind', o.src, o.dst);
    else if (o.op === 'dev') args.push('--dev', o.dst);
    else {
      args.push('--proc', o.dst);
      for (const e of PROC_READ_ONLY) args.push('--ro-bind-try', `/proc/${e}`, `${o.dst}/${e}`);
    }
  }
  args.push('--remount-ro', '/', '--chdir', plan.cwd, '--unshare-all', '--hostname', 'hookwarden');
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--args', '3', '--');
  return args;
}

/** bwrap's `--args` data: the hook's whole environment, as NUL-separated arguments. */
export function bwrapEnvArgs(env: Readonly<Record<string, string>>): Buffer {
  const args = ['--clearenv', ...Object.entries(env).flatMap(([k, v]) => ['--setenv', k, v])];
  return Buffer.from(args.map((a) => `${a}\0`).join(''));
}
