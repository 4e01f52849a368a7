// A hook's async fields (`async`, `asyncRewake`, `retries`, `retryBackoffMs`, `retryBackoff`) →
// its AsyncHookSpec, or undefined for a hook that runs in the dispatch. The retry fields only mean
// something for async hooks: on any other hook they are reported and ignored.

import { z } from 'zod';
import { joinPath } from '../contract/messages.js';
import type { AsyncHookSpec } from '../registry/hook-definition.js';
import { DEFAULTS, LIMIT_BOUNDS } from './defaults.js';
import type { DiagnosticSink } from './diagnostics.js';
import { posInt, wholeNumber } from './zod-fields.js';

/** The async fields of a hook spec (spread into hookSpecSchema, config/schema.ts). */
export const asyncFieldsShape = {
  async: z.boolean({ error: 'expected true or false' }).optional().meta({
    description:
      'Run in the background after the dispatch answered; the answer never changes the verdict (docs/scaling.md).',
  }),
  asyncRewake: z.boolean({ error: 'expected true or false' }).optional().meta({
    description:
      'Async, and a deny, continueWork or exit 2 emits a `rewake` event for the platform to wake the agent.',
  }),
  retries: wholeNumber()
    .max(LIMIT_BOUNDS.retries, { error: `expected at most ${LIMIT_BOUNDS.retries}` })
    .optional()
    .meta({ description: 'Async hooks: times a failed run is tried again. Default 0.' }),
  retryBackoffMs: posInt()
    .max(LIMIT_BOUNDS.retryBackoffMs, { error: `expected at most ${LIMIT_BOUNDS.retryBackoffMs}` })
    .optional()
    .meta({ description: 'Async hooks: wait before the first retry, in ms. Default 1000.' }),
  retryBackoff: z
    .enum(['fixed', 'exponential'], { error: 'expected "fixed" or "exponential"' })
    .optional()
    .meta({ description: 'Async hooks: the same wait each time, or doubling. Default "exponential".' }),
};

type AsyncFields = { [K in keyof typeof asyncFieldsShape]?: z.infer<(typeof asyncFieldsShape)[K]> };

const RETRY_FIELDS = ['retries', 'retryBackoffMs', 'retryBackoff'] as const;

export function asyncSpecOf(
  spec: AsyncFields,
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
