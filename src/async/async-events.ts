// What an async hook's run ends with: the `async.completed` event (outcome, error, timing), a
// `rewake` event when an `asyncRewake` hook said no, and its audit record (metadata only, with the
// asyncId that links it to the dispatch's `queued` record). Built once, wherever the run ended
// (this process or another replica), and delivered to the library events, the audit sink and the
// tenant's event stream (SSE).
import type { AuditRecord } from '../audit/audit-log.js';
import { TEXT_CAPS } from '../config/defaults.js';
import type { AsyncCompletedEvent, RewakeEvent } from '../contract/async-events.js';
import type { HookError } from '../contract/error-codes.js';
import type { EventDefinition } from '../contract/events.js';
import { foldAnswers, type HookAnswer } from '../contract/fold.js';
import { capAnswer } from '../contract/text-caps.js';
import type { HookType, Outcome } from '../contract/types.js';
import type { AsyncJob } from '../dispatch/async-job.js';
import type { HookDefinition } from '../registry/hook-definition.js';

/** Everything one finished run produces. */
export interface AsyncCompletion {
  readonly completed: AsyncCompletedEvent;
  readonly rewake: RewakeEvent | undefined;
  readonly record: AuditRecord;
  /** The job that ran (where its run's span starts, and which dispatch it links to). */
  readonly job: AsyncJob;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** The rewake reason of an answer, or undefined when it does not wake the agent. */
function rewakeReason(answer: HookAnswer): string | undefined {
  if (answer.kind !== 'output' || answer.output === undefined) return undefined;
  const o = answer.output;
  if (o.continueWork !== undefined) return o.continueWork.reason || 'asked to keep working';
  if (o.decision === 'deny' || o.continue === false)
    return o.reason ?? o.stopReason ?? 'denied by an async hook';
  // Exit 2 on an event where Claude Code reads it as feedback (PostToolUse): the stderr was mapped.
  if (answer.exit2 === true) return o.additionalContext ?? 'hook exited with code 2';
  return undefined;
}

/** The completion of a run that ended with `answer` after `attempts` attempts. */
export function completionOf(
  def: EventDefinition,
  hook: HookDefinition,
  job: AsyncJob,
  answer: HookAnswer,
  attempts: number,
  startedAt: number,
): AsyncCompletion {
  const capped = capAnswer(answer, TEXT_CAPS);
  const r = foldAnswers(def, job.input, [[hook, capped]]).hooks[0]!;
  const rewake = hook.async?.rewake === true ? rewakeReason(capped) : undefined;
  return completion(job, hook.type, {
    outcome: r.outcome,
    error: r.error,
    latencyMs: r.latencyMs,
    queuedMs: attempts === 0 ? 0 : Math.max(0, startedAt - job.enqueuedAt),
    attempts,
    deadlineMs: hook.deadlineMs,
    memoryBytes: r.memoryBytes,
    rewake,
  });
}

/** The completion of a job that never ran (the queue closed, no replica has its spec…). */
export function notRunCompletion(job: AsyncJob, type: HookType, error: HookError): AsyncCompletion {
  return completion(job, type, { outcome: 'not-run', error, latencyMs: 0, queuedMs: 0, attempts: 0 });
}

function completion(
  job: AsyncJob,
  type: HookType,
  r: {
    outcome: Outcome;
    error: HookError | undefined;
    latencyMs: number;
    queuedMs: number;
    attempts: number;
    deadlineMs?: number;
    memoryBytes?: number | undefined;
    rewake?: string | undefined;
  },
): AsyncCompletion {
  const time = new Date().toISOString();
  const who = {
    asyncId: job.asyncId,
    time,
    ...(job.tenant !== undefined ? { tenant: job.tenant } : {}),
    sessionId: job.sessionId,
    event: job.event,
    hookId: job.hookId,
  };
  const completed: AsyncCompletedEvent = {
    ...who,
    scope: job.scope,
    type,
    outcome: r.outcome,
    ...(r.error !== undefined ? { error: r.error } : {}),
    latencyMs: round(r.latencyMs),
    queuedMs: round(r.queuedMs),
    attempts: r.attempts,
  };
  const record: AuditRecord = {
    time,
    ...(job.tenant !== undefined ? { tenant: job.tenant } : {}),
    event: job.event,
    hookId: job.hookId,
    scope: job.scope,
    type,
    outcome: r.outcome,
    ...(r.error !== undefined ? { errorCode: r.error.code } : {}),
    queuedMs: round(r.queuedMs),
    runMs: round(r.latencyMs),
    deadlineMs: r.deadlineMs ?? 0,
    ...(r.memoryBytes !== undefined ? { memoryBytes: r.memoryBytes } : {}),
    asyncId: job.asyncId,
    attempts: r.attempts,
  };
  const rewake = r.rewake === undefined ? undefined : { ...who, reason: r.rewake };
  return { completed, rewake, record, job };
}
