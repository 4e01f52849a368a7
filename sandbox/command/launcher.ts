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

export function chooseLauncher(): LauncherChoice {
  const setting = process.env.HOOKWARDEN_SPAWN_SERVER;
  if (setting === 'off' || setting === '0' || setting === 'false') {
    return {
      kind: 'node-spawn',
      wrapper: findWrapper(),
      reason: `HOOKWARDEN_SPAWN_SERVER=${setting}`,
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
    : new NodeSpawnLauncher(choice.wrapper);
}

/**
 * Why process-mode containment is turned off, when the operator did (HOOKWARDEN_CONTAINMENT=off, or
 * 0, false; read when a launcher is created): such hooks run uncontained, visibly, and a hook that
 * requires containment fails. Any other value, or none, contains them where the host allows it.
 */
export function containmentSetting(): string | undefined {
  const setting = process.env.HOOKWARDEN_CONTAINMENT;
  return setting === 'off' || setting === '0' || setting === 'false'
    ? `HOOKWARDEN_CONTAINMENT=${setting}`
    : undefined;
}
