// The payloads of an async hook's run ending, as the library events (`async.completed`, `rewake`),
// the audit sink and the tenant's event stream (SSE) carry them. Built in src/async/async-events.ts.
import type { HookError } from './error-codes.js';
import type { HookType, Outcome, Scope } from './types.js';

/** What both events say: which run, when, for whom, of which hook. */
interface AsyncEventBase {
  asyncId: string;
  /** ISO time the run ended. */
  time: string;
  tenant?: string;
  sessionId: string;
  event: string;
  hookId: string;
}

/** `async.completed`: an async hook's run ended (its last attempt, or it could not run). */
export interface AsyncCompletedEvent extends AsyncEventBase {
  scope: Scope;
  type: HookType;
  /** As in a DispatchResult record (`not-run` when it never started: queue closed, spec not found). */
  outcome: Outcome;
  error?: HookError;
  /** Run time of the last attempt, ms. */
  latencyMs: number;
  /** From the dispatch that queued it to the start of the last attempt, ms. */
  queuedMs: number;
  /** Attempts made (1 + retries used); 0 when it never ran. */
  attempts: number;
}

/** `rewake`: an `asyncRewake` hook denied, asked to keep working (continueWork) or exited 2. */
export interface RewakeEvent extends AsyncEventBase {
  /** The hook's reason (its stderr for exit 2), capped like every hook-controlled text. */
  reason: string;
}
