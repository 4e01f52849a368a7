// Whether this host lets the spawn server contain process-mode hooks (user, PID, mount and IPC
// namespaces and a /proc of their own), and why not: from the server's own check (server-check.ts).
// Synchronous and cached, for `hookwarden doctor` and the isolation levels table; a running executor
// learns it from its server's first frame instead.
import { containmentSetting, spawnServerSetting } from './launcher.js';
import { NODE_SPAWN_UNCONTAINED } from './node-launcher.js';
import { serverCheck } from './server-check.js';

export interface ContainmentSupport {
  readonly ok: boolean;
  /** Why not. */
  readonly reason?: string;
}

export function containmentSupport(): ContainmentSupport {
  const off = containmentSetting();
  if (off !== undefined) return { ok: false, reason: `containment is turned off (${off})` };
  const check = spawnServerSetting() === undefined ? serverCheck() : undefined;
  if (check === undefined) return { ok: false, reason: NODE_SPAWN_UNCONTAINED };
  return check.contained.ok
    ? { ok: true }
    : { ok: false, reason: check.contained.reason ?? 'the check failed' };
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
