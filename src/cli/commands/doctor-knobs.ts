// `hookwarden doctor`: what holds hooks besides their namespaces (the process cap, Landlock), the
// knobs in use, and bubblewrap, which the tests use as a cross-check (docs/security.md).
import { findBwrap } from '../../../sandbox/command/bwrap-profile.js';
import { SANDBOX_KNOBS } from '../../../sandbox/command/knobs.js';
import { serverCheck } from '../../../sandbox/command/server-check.js';
import { DEFAULT_MAX_PROCESSES } from '../../contract/command-task.js';
import type { Check } from './doctor-check.js';

const CAP_DETAIL: Record<string, string> = {
  'pids-cgroup': 'a pids cgroup of its own',
  'pid-namespace':
    "its PID namespace's own pid_max (Linux 6.14+; the kernel's floor makes the bound the cap + 299)",
  'rlimit-nproc': 'RLIMIT_NPROC in a user namespace of its own (hookwarden is not root)',
  none: 'NONE: no pids cgroup may be made here, the kernel is older than 6.14, and hooks run as root',
};

/** Which mechanism caps a hook's processes in each mode. */
export function capCheck(): Check {
  const name = 'process cap';
  const check = serverCheck();
  if (check === undefined)
    return {
      name,
      ok: false,
      detail: 'no cap: hooks start through Node, not the spawn server',
      fix: 'install a C compiler (apt-get install -y gcc libc6-dev) and run npm run build',
    };
  const { contained, namespace } = check.processCap;
  const detail = `at most ${DEFAULT_MAX_PROCESSES} processes and threads per hook; contained hooks: ${CAP_DETAIL[contained] ?? contained}; namespace hooks: ${CAP_DETAIL[namespace] ?? namespace}`;
  return namespace === 'none' || contained === 'none'
    ? {
        name,
        ok: false,
        detail,
        fix: 'run hookwarden as root with the pids cgroup controller mounted, in a cgroup v2 subtree delegated to it, or on Linux 6.14 or later',
      }
    : { name, ok: true, detail };
}

/** Whether Landlock adds its restrictions here (never the only thing that holds). */
export function landlockCheck(): Check {
  const abi = serverCheck()?.landlock ?? 0;
  if (abi === 0)
    return {
      name: 'Landlock',
      ok: true,
      detail:
        'not available here (the kernel has no Landlock, or it is not enabled): namespaces alone contain hooks',
    };
  const scoped = abi >= 6 ? '; abstract Unix sockets and signals scoped to the hook' : '';
  return {
    name: 'Landlock',
    ok: true,
    detail: `ABI ${abi}, on top of the namespaces: contained hooks write nothing under /sys, /proc or /dev but its harmless nodes; namespace hooks write only their writable mounts${scoped}`,
  };
}

/** Every HOOKWARDEN_* variable set (the sandbox knobs with their values), and a refused one. */
export function knobsCheck(): Check {
  const set = Object.keys(process.env)
    .filter((k) => k.startsWith('HOOKWARDEN_') && process.env[k] !== '')
    .sort();
  const sandbox = new Set<string>(SANDBOX_KNOBS);
  const shown = set.map((k) => (sandbox.has(k) ? `${k}=${process.env[k]}` : k));
  const bwrap = process.env.HOOKWARDEN_BWRAP;
  const found = bwrap !== undefined && bwrap !== '' ? findBwrap() : undefined;
  const detail = set.length === 0 ? 'none set' : shown.join(', ');
  if (found !== undefined && !found.ok && /refused/.test(found.reason))
    return {
      name: 'knobs',
      ok: false,
      detail: `${detail}; ${found.reason}`,
      fix: 'unset HOOKWARDEN_BWRAP, or point it at a bwrap only root can change',
    };
  return { name: 'knobs', ok: true, detail };
}

/** bubblewrap: not needed, the tests' cross-check where it is installed. */
export function bwrapCheck(): Check {
  const found = findBwrap();
  return {
    name: 'bubblewrap',
    ok: true,
    detail: found.ok
      ? `${found.path}: not needed; the tests build the same sandboxes with it and compare (HOOKWARDEN_NAMESPACE=bwrap)`
      : `not needed (${found.reason}); the tests' cross-check against it does not run here`,
  };
}
