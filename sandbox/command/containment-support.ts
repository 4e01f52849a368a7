// Whether this host lets the spawn server contain process-mode hooks (user, PID, mount and IPC
// namespaces and a /proc of their own), and why not: `hw-spawn-server --check` runs the very check
// a server runs at start. Synchronous and cached, for `hookwarden doctor` and the isolation levels
// table; a running executor learns it from its server's first frame instead.
import { spawnSync } from 'node:child_process';
import { containmentSetting } from './launcher.js';
import { findNativeHelper } from './native-helper.js';
import { NODE_SPAWN_UNCONTAINED } from './node-launcher.js';

export interface ContainmentSupport {
  readonly ok: boolean;
  /** Why not. */
  readonly reason?: string;
}

let probed: ContainmentSupport | undefined;

export function containmentSupport(): ContainmentSupport {
  const off = containmentSetting();
  if (off !== undefined) return { ok: false, reason: `containment is turned off (${off})` };
  if (probed !== undefined) return probed;
  const server = findNativeHelper('hw-spawn-server');
  if (server === undefined || process.env.HOOKWARDEN_SPAWN_SERVER === 'off') {
    probed = { ok: false, reason: NODE_SPAWN_UNCONTAINED };
    return probed;
  }
  const r = spawnSync(server, ['--check'], { encoding: 'utf8', env: {}, timeout: 10_000 });
  const out = (r.stdout ?? '').trim();
  probed =
    out === 'contained'
      ? { ok: true }
      : { ok: false, reason: out.replace(/^uncontained /, '') || r.error?.message || 'the check failed' };
  return probed;
}

/** How to let hookwarden contain process-mode hooks, from why the kernel refused. */
export function containmentFix(reason: string): string {
  if (/HOOKWARDEN_CONTAINMENT/.test(reason)) return 'unset HOOKWARDEN_CONTAINMENT';
  if (/not the spawn server|Node/.test(reason))
    return 'build the spawn server: install a C compiler (apt-get install -y gcc libc6-dev) and run npm run build';
  if (/No space left on device/.test(reason))
    return 'user namespaces are limited to 0 (or used up) here: sysctl -w user.max_user_namespaces=15000';
  if (/mount \/proc/.test(reason))
    return 'this host\'s /proc is partly masked (a container): a private /proc cannot be mounted; run hookwarden where /proc is whole, or use isolation "namespace" elsewhere';
  if (/Operation not permitted|Permission denied/.test(reason))
    return 'unprivileged user namespaces are refused: on Ubuntu set kernel.apparmor_restrict_unprivileged_userns=0 (or give the spawn server an AppArmor profile allowing userns); in a container, allow unshare (a seccomp profile that permits clone with CLONE_NEWUSER)';
  return 'check that this user may create user, PID and mount namespaces (unshare -Urpm --fork --mount-proc true)';
}
