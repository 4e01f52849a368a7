// Which launcher starts command hooks here: the spawn server when it was built (the main thread
// never forks), else child_process.spawn through an rlimit wrapper. HOOKWARDEN_SPAWN_SERVER=off
// forces the Node spawn path (for comparison; it gives the same guarantees with hw-exec). Read when
// a launcher is created (an executor's command lane); `hookwarden doctor` reports the choice.
import type { Launcher } from './launch.js';
import { findNativeHelper } from './native-helper.js';
import { NodeSpawnLauncher } from './node-launcher.js';
import { SpawnServer } from './spawn-server.js';
import { findWrapper, type Wrapper } from './wrapper.js';

export type LauncherChoice =
  | { readonly kind: 'spawn-server'; readonly path: string }
  | {
      readonly kind: 'node-spawn';
      readonly wrapper: Wrapper | null;
      /** Why not the spawn server. */
      readonly reason: string;
      /** How to get it, when it can be had. */
      readonly fix: string;
    };

/** `off`, `0` or `false`: a knob turned off. */
const isOff = (v: string | undefined) => v === 'off' || v === '0' || v === 'false';

/** HOOKWARDEN_SPAWN_SERVER=off (or 0, false), as `NAME=value`, when the operator set it. */
export function spawnServerSetting(): string | undefined {
  const setting = process.env.HOOKWARDEN_SPAWN_SERVER;
  return isOff(setting) ? `HOOKWARDEN_SPAWN_SERVER=${setting}` : undefined;
}

export function chooseLauncher(): LauncherChoice {
  const off = spawnServerSetting();
  if (off !== undefined) {
    return {
      kind: 'node-spawn',
      wrapper: findWrapper(),
      reason: off,
      fix: 'unset HOOKWARDEN_SPAWN_SERVER',
    };
  }
  const path = findNativeHelper('hw-spawn-server');
  if (path !== undefined) return { kind: 'spawn-server', path };
  return {
    kind: 'node-spawn',
    wrapper: findWrapper(),
    reason: 'the spawn server was not built (no C compiler at npm run build)',
    fix: 'install a C compiler (apt-get install -y gcc libc6-dev) and run npm run build',
  };
}

export function createLauncher(choice: LauncherChoice = chooseLauncher()): Launcher {
  return choice.kind === 'spawn-server'
    ? new SpawnServer(choice.path)
    : new NodeSpawnLauncher(choice.wrapper, choice.reason);
}

/**
 * Why process-mode containment is turned off, when the operator did (HOOKWARDEN_CONTAINMENT=off, or
 * 0, false; read when a launcher is created): such hooks run uncontained, visibly, and a hook that
 * requires containment fails. Any other value, or none, contains them where the host allows it.
 */
export function containmentSetting(): string | undefined {
  const setting = process.env.HOOKWARDEN_CONTAINMENT;
  return isOff(setting) ? `HOOKWARDEN_CONTAINMENT=${setting}` : undefined;
}

/**
 * Who builds namespace sandboxes: the spawn server (`native`, the default), or, with
 * HOOKWARDEN_NAMESPACE=bwrap, bubblewrap started by the spawn server from the same plan (the tests'
 * cross-check; it contains as much, and the process cap still applies). Any other value is the default.
 */
export function namespaceSetting(): 'native' | 'bwrap' {
  return process.env.HOOKWARDEN_NAMESPACE === 'bwrap' ? 'bwrap' : 'native';
}
