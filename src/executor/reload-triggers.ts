// What reloads an executor on its own: the config watcher (`watch`: a watched file or folder changed)
// and the remote-pack poller (a pinned pack's URL answered something new). Both call `reload`; a
// reload refused because the executor closed meanwhile is nothing to report.
import type { Diagnostic } from '../config/diagnostics.js';
import type { LoadedConfig } from '../config/load.js';
import type { RemotePacks } from '../packs/remote/remote-packs.js';
import { PackPoller } from './poll-packs.js';
import { ConfigWatcher } from './watch.js';

/** Starts the triggers on what `loaded` names; the executor updates them after each reload. */
export function startReloadTriggers(
  watch: boolean,
  remote: RemotePacks,
  loaded: LoadedConfig,
  warn: (d: Diagnostic) => void,
  reload: () => Promise<unknown>,
): { watcher: ConfigWatcher | undefined; poller: PackPoller } {
  const onChange = () => {
    reload().catch(() => {}); // closed meanwhile: nothing to reload
  };
  let watcher: ConfigWatcher | undefined;
  if (watch) {
    watcher = new ConfigWatcher(onChange);
    watcher.update(loaded.watchTargets);
  }
  const poller = new PackPoller(remote, onChange, warn);
  poller.update(loaded.remotePins);
  return { watcher, poller };
}
