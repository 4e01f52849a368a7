// What a tenant's token may read of a result or event: hookwarden's own messages — a policy failure
// (a policy file, pack or key that did not load), a hook's error (a spawn that failed, an isolation
// that is unavailable), an audit warning — name the operator's files, and a tenant must not learn the
// operator's layout from them: their absolute paths are shortened to the last component
// (contract/redact-paths.ts). A hook's own answer (its reason, context, rewrites) is the hook's, and
// left as it is. The operator (admin tokens, no --auth, the Unix socket) sees everything.
import type { FeedEvent } from '../async/event-feed.js';
import { redactPaths } from '../contract/redact-paths.js';
import { type DispatchResult, dispatchResult } from '../contract/result.js';

/** Whether the result's `reason` is hookwarden's text (a failure) rather than a hook's answer. */
function reasonIsOurs(result: DispatchResult): boolean {
  if (result.decidedBy === 'policy' || result.decidedBy === 'audit') return true;
  // A fail-closed hook's deny: the reason quotes its error.
  return result.hooks.some((h) => h.id === result.decidedBy && h.error !== undefined);
}

/** The result as a tenant reads it. */
export function tenantResult(result: DispatchResult): DispatchResult {
  const hooks = result.hooks.map((h) =>
    h.error === undefined ? h : { ...h, error: { ...h.error, message: redactPaths(h.error.message) } },
  );
  return dispatchResult({
    ...result,
    reason: result.reason !== undefined && reasonIsOurs(result) ? redactPaths(result.reason) : result.reason,
    warnings: result.warnings?.map(redactPaths),
    hooks,
  });
}

/** An async event as a tenant's stream sends it (a completion's error message shortened). */
export function tenantEvent(e: FeedEvent): FeedEvent {
  const data = e.data as { error?: { message?: unknown } };
  if (typeof data.error?.message !== 'string') return e;
  return {
    ...e,
    data: { ...e.data, error: { ...data.error, message: redactPaths(data.error.message) } },
  } as FeedEvent;
}
