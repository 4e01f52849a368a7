// A lane's refusal as a hook's answer: a run that never started is `not-run`; one that failed
// underneath after it started (a crashed worker, the backstop) is that hook's failure.
import { type HookAnswer, notRunAnswer } from '../contract/fold.js';
import type { LaneRefusal } from '../pool/pool.js';

export function refusedAnswer(r: LaneRefusal, latencyMs = 0): HookAnswer {
  if (r.started !== true) return notRunAnswer(r.error, r.queuedMs);
  return { kind: 'failure', error: r.error, latencyMs, queuedMs: r.queuedMs };
}
