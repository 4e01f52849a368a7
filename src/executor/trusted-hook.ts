// The embedding platform's own in-process hooks (`register()`): their spec, checked like any other
// input, and the frozen definition the registry runs at trusted scope.

import { z } from 'zod';
import { DEFAULTS } from '../config/defaults.js';
import { refuseUnknownOptions } from '../config/option-keys.js';
import { ON_ERROR_MODES, type OnError, quotedList } from '../contract/decisions.js';
import type { EventCatalogue } from '../contract/events.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { issueMessages } from '../contract/messages.js';
import { IfFilter } from '../registry/if-filter.js';
import { ToolMatcher } from '../registry/matcher.js';
import type { TrustedDefinition, TrustedHandler } from '../registry/registry.js';

/** A trusted in-process hook (the embedding platform's own code; never loaded from a file). */
export interface TrustedHookSpec {
  event: string;
  /** Stable id; registering the same event+name again replaces the earlier callback. */
  name: string;
  matcher?: string;
  if?: string;
  /** Deadline in ms. Default 5000. */
  timeoutMs?: number;
  onError?: OnError;
  handler: TrustedHandler;
}

const trustedSpecSchema = z.object({
  event: z.string({ error: 'expected an event name' }).min(1, { error: 'expected an event name' }),
  name: z.string({ error: 'expected a string' }).min(1, { error: 'expected a non-empty name' }),
  matcher: z.string({ error: 'expected a string' }).optional(),
  if: z.string({ error: 'expected a string like "Bash(git *)"' }).optional(),
  timeoutMs: z
    .number({ error: 'expected a positive integer' })
    .int({ error: 'expected a positive integer' })
    .positive({ error: 'expected a positive integer' })
    .optional(),
  onError: z.enum(ON_ERROR_MODES, { error: `expected ${quotedList(ON_ERROR_MODES)}` }).optional(),
  handler: z.custom<(...args: unknown[]) => unknown>((v) => typeof v === 'function', {
    error: 'expected a function',
  }),
});

const TRUSTED_SPEC_KEYS: ReadonlySet<string> = new Set(Object.keys(trustedSpecSchema.shape));

/** The definition of a registered hook; throws `invalid_options` naming the field for a bad spec. */
export function trustedDefinition(spec: TrustedHookSpec, catalogue: EventCatalogue): TrustedDefinition {
  refuseUnknownOptions(spec, TRUSTED_SPEC_KEYS, 'register');
  const parsed = trustedSpecSchema.safeParse(spec);
  if (!parsed.success) {
    const problems = issueMessages(parsed.error.issues, spec).map((m) => `register: ${m.path}: ${m.message}`);
    throw new HookwardenError('invalid_options', problems.join('; '), { problems });
  }
  const resolved = catalogue.resolve(spec.event);
  if (resolved === undefined) {
    throw new HookwardenError(
      'invalid_options',
      `register: event: unknown event "${spec.event}"; valid events are ${catalogue.acceptedNames().join(', ')}`,
    );
  }
  const ifFilters = spec.if === undefined ? [] : [new IfFilter(spec.if)];
  // The platform's own code: a filter it cannot have evaluated is a mistake to report, not to run.
  const unevaluable = ifFilters[0]?.unevaluable;
  if (unevaluable !== undefined)
    throw new HookwardenError(
      'invalid_options',
      `register: if: ${unevaluable}, got ${JSON.stringify(spec.if)}`,
    );
  const matcher = new ToolMatcher(spec.matcher, { event: resolved.definition.name });
  if (matcher.unevaluable !== undefined)
    throw new HookwardenError(
      'invalid_options',
      `register: matcher: ${matcher.unevaluable}, got ${JSON.stringify(spec.matcher)}`,
    );
  return Object.freeze({
    id: spec.name,
    event: resolved.definition.name,
    scope: 'trusted',
    type: 'trusted',
    matcher:
      matcher.kind === 'all' || (!resolved.definition.toolScoped && resolved.definition.matchOn.length === 0)
        ? undefined
        : matcher,
    ifFilters: resolved.definition.toolScoped ? ifFilters : [],
    requireOk: resolved.aliasInput?.ok,
    onError: spec.onError ?? 'skip',
    deadlineMs: spec.timeoutMs ?? DEFAULTS.js.timeoutMs,
    once: false,
    dedupKey: `trusted\u0000${resolved.definition.name}\u0000${spec.name}`,
    handler: spec.handler,
  });
}
