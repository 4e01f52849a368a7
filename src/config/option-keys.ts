// Options objects of the public API refuse keys they do not know (trust invariant 1: a typo such as
// `createExecutor({ polcy: … })` must not start an executor without its policy). One rule for all of
// them: each lists its keys once (`optionKeys<T>()` checks at compile time that the list is the
// interface's), and an unknown key is `invalid_options` naming the option path and the key it was
// probably meant to be. Config files warn about unknown keys instead (diagnostics, suggest.ts).
import { HookwardenError } from '../contract/hookwarden-error.js';
import { isObject } from '../contract/messages.js';
import { closest } from './suggest.js';

/**
 * The keys of an options interface, as a set. Listing a key the interface does not have, or leaving
 * one out, is a type error: `optionKeys<DispatchOptions>()(['tenant', 'signal', 'onHookTiming'])`.
 */
export const optionKeys =
  <T extends object>() =>
  <const L extends readonly (keyof T & string)[]>(
    keys: L & ([Exclude<keyof T & string, L[number]>] extends [never] ? unknown : never),
  ): ReadonlySet<string> =>
    Object.freeze(new Set<string>(keys));

/** The problem with each unknown key of `value` (an options object at `at`), one line each. */
export function unknownOptionProblems(value: unknown, known: ReadonlySet<string>, at: string): string[] {
  if (!isObject(value)) return [];
  const problems: string[] = [];
  for (const key of Object.keys(value)) {
    if (known.has(key)) continue;
    const meant = closest(key, known);
    const path = at === '' ? key : `${at}.${key}`;
    problems.push(
      meant === undefined
        ? `${path}: unknown option; the options are ${[...known].join(', ')}`
        : `${path}: unknown option (did you mean "${meant}"?)`,
    );
  }
  return problems;
}

/** Throws `invalid_options` (every unknown key in `problems`) when `value` has a key not in `known`. */
export function refuseUnknownOptions(value: unknown, known: ReadonlySet<string>, at: string): void {
  const problems = unknownOptionProblems(value, known, at);
  if (problems.length > 0) throw new HookwardenError('invalid_options', problems.join('; '), { problems });
}
