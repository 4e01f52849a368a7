// What every adapter's answer says besides the verdict (Claude Code's and each agent's): the reason
// of a deny, one line per hook that failed without deciding, notes on hooks that erred after
// deciding and on result fields the agent has no place for. Dependency-free.
import type { DispatchResult } from './result.js';

/** Hook-controlled text on one line (a note must not pass for another). */
export const oneLine = (text: string): string => text.replace(/\s*[\r\n]+\s*/g, ' ');

/**
 * The reason a deny is shown with: never blank (an agent may read a blank reason as no block at all,
 * as Codex does with exit 2 and an empty stderr).
 */
export const denyReason = (result: DispatchResult): string =>
  result.reason !== undefined && result.reason.trim() !== ''
    ? result.reason
    : result.decidedBy === undefined
      ? 'denied'
      : `denied by hook "${result.decidedBy}"`;

/** Outcomes of a hook that ran and failed (what the agents call a non-blocking error). */
const FAILED_OUTCOMES: ReadonlySet<string> = new Set(['error', 'timeout', 'limit']);

/** One line per hook that failed without deciding: what the user is shown. */
export function brokenHooks(result: DispatchResult): string[] {
  return result.hooks
    .filter((h) => h.error !== undefined && FAILED_OUTCOMES.has(h.outcome))
    .map((h) => oneLine(`hookwarden: hook "${h.id}" failed (${h.error!.code}): ${h.error!.message}`));
}

/** One line per hook that erred but was not a plain failure (not run, queued with an error). */
export function otherHookErrors(result: DispatchResult): string[] {
  return result.hooks
    .filter((h) => h.error !== undefined && !FAILED_OUTCOMES.has(h.outcome))
    .map((h) => oneLine(`hookwarden: hook "${h.id}" ${h.outcome}: ${h.error!.code}: ${h.error!.message}`));
}

/** One line per warning of a hook's record (what it answered that was not applied, and why). */
export function hookWarnings(result: DispatchResult): string[] {
  return result.hooks.flatMap((h) =>
    (Array.isArray(h.warnings) ? h.warnings : [])
      .filter((w): w is string => typeof w === 'string')
      .map((w) => oneLine(`hookwarden: hook "${h.id}": ${w}`)),
  );
}
