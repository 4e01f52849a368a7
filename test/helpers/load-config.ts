// loadConfig as the executor calls it: pins load through the packs stage (packPinLoader), with
// `remote` for url pins when a test gives one.
import { type LoadedConfig, type LoadOptions, loadConfig as load } from '../../src/config/load.js';
import type { SourceSpec } from '../../src/config/read-source.js';
import { packPinLoader } from '../../src/packs/pins.js';
import type { RemotePacks } from '../../src/packs/remote/remote-packs.js';

export function loadConfig(
  options: Omit<LoadOptions, 'pins'> & { pins?: LoadOptions['pins']; remote?: RemotePacks },
): Promise<LoadedConfig> {
  const { remote, ...rest } = options;
  return load({ ...rest, pins: options.pins ?? packPinLoader(remote) });
}

/** A config given as an object, at `scope` (project by default), labelled `label` in diagnostics. */
export const objectSource = (
  value: unknown,
  scope: SourceSpec['scope'] = 'project',
  label = '<test>',
): SourceSpec => ({
  kind: 'object',
  value,
  scope,
  label,
  dir: '/tmp',
});
