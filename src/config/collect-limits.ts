// Each config source's `limits`, validated (every problem names its JSON path; an unknown key is
// named with the limit it resembles), then resolved per scope by scope-limits.ts.
import { isObject, issueMessages } from '../contract/messages.js';
import type { Limits } from './defaults.js';
import { limitsSchema } from './limits-schema.js';
import type { ReadSource } from './read-source.js';
import {
  type LimitsByScope,
  type LimitsSource,
  resolveScopeLimits,
  type ScopeLimits,
} from './scope-limits.js';
import { didYouMean } from './suggest.js';

const LIMIT_KEYS: ReadonlySet<string> = new Set(Object.keys(limitsSchema.shape));

/** Each source's `limits`, validated (problems name their path), then resolved per scope. */
export function collectLimits(
  sources: readonly ReadSource[],
  override: Partial<Limits> | undefined,
  base: ScopeLimits | undefined,
): { byScope: LimitsByScope; executor: Limits } {
  const parsedSources: LimitsSource[] = [];
  for (const src of sources) {
    const limits = src.value?.limits;
    if (limits === undefined) continue;
    // An unknown key (a typo of a floor or cap) would fail open: named, with the key it resembles;
    // in a policy file it is a policy failure.
    if (isObject(limits))
      for (const k of Object.keys(limits))
        if (!LIMIT_KEYS.has(k))
          src.sink.warn(
            `limits.${k}`,
            `unknown limit ignored${didYouMean(k, LIMIT_KEYS)}; the limits are ${[...LIMIT_KEYS].join(', ')}`,
            src.spec.scope === 'policy',
          );
    const parsed = limitsSchema.safeParse(limits);
    if (!parsed.success) {
      for (const m of issueMessages(parsed.error.issues, limits, 'limits')) src.sink.error(m.path, m.message);
      continue;
    }
    parsedSources.push({ scope: src.spec.scope, limits: parsed.data as Partial<Limits>, sink: src.sink });
  }
  return resolveScopeLimits(parsedSources, override, base);
}
