// A lane's refusal as a hook's answer: a run that never started is `not-run`; one that failed
// underneath after it started (a crashed worker, the backstop) is that hook's failure.
import type { HookError } from '../contract/error-codes.js';
import { type HookAnswer, notRunAnswer } from '../contract/fold.js';
import type { LaneRefusal } from '../pool/pool.js';

/** The answer of a hook that ran again after its machinery was lost: its record says how the first run ended. */
export function withRetried(answer: HookAnswer, retried: HookError | undefined): HookAnswer {
  return retried === undefined || answer.kind === 'not-run' ? answer : { ...answer, retried };
}

export function refusedAnswer(r: LaneRefusal, latencyMs = 0): HookAnswer {
  if (r.started !== true) return notRunAnswer(r.error, r.queuedMs);
  return { kind: 'failure', error: r.error, latencyMs, queuedMs: r.queuedMs };
}
