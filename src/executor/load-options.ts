// The one way resolved executor options become a loaded configuration: what createExecutor(),
// reload(), validateConfig(), the fixture runner (`hookwarden test`, `pack test`) and the benchmark's
// description of a run all load. Each of them sees the same sources, limits, pins and hook-type policy
// (http URLs, evaluators), so a hook that runs at dispatch is one that `test` and `validate` see.
import { type LoadedConfig, loadConfig } from '../config/load.js';
import { packPinLoader } from '../packs/pins.js';
import { RemotePacks } from '../packs/remote/remote-packs.js';
import type { ResolvedOptions } from './options.js';

/**
 * Loads the configuration `options` name. `remote` fetches url pins (default: one for this load only,
 * with the options' `remotePacks` settings).
 */
export function loadResolvedConfig(options: ResolvedOptions, remote?: RemotePacks): Promise<LoadedConfig> {
  return loadConfig({
    config: options.config,
    policy: options.policy,
    limits: options.limits,
    strict: options.strict,
    pins: packPinLoader(remote ?? new RemotePacks(options.remote)),
    hookTypes: options.hookTypes,
  });
}
