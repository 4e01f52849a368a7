// A hook's async fields (`async`, `asyncRewake`, `retries`, `retryBackoffMs`, `retryBackoff`) →
// its AsyncHookSpec, or undefined for a hook that runs in the dispatch. The retry fields only mean
// something for async hooks: on any other hook they are reported and ignored.
import { joinPath } from '../contract/messages.js';
import type { AsyncHookSpec } from '../registry/hook-definition.js';
import { DEFAULTS } from './defaults.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { RawHookSpec } from './schema.js';

const RETRY_FIELDS = ['retries', 'retryBackoffMs', 'retryBackoff'] as const;

export function asyncSpecOf(
  spec: RawHookSpec,
  path: string,
  sink: DiagnosticSink,
): AsyncHookSpec | undefined {
  if (spec.async !== true && spec.asyncRewake !== true) {
    for (const key of RETRY_FIELDS)
      if (spec[key] !== undefined)
        sink.warn(joinPath(path, key), `"${key}" applies to async hooks only ("async": true) and is ignored`);
    return undefined;
  }
  return Object.freeze({
    rewake: spec.asyncRewake === true,
    retries: spec.retries ?? DEFAULTS.async.retries,
    retryBackoffMs: spec.retryBackoffMs ?? DEFAULTS.async.retryBackoffMs,
    retryBackoff: spec.retryBackoff ?? 'exponential',
  });
}
