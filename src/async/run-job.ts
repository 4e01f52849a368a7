// Runs one attempt of an async hook, the way a dispatch runs a hook: through the executor's pool
// under the job's tenant (so it counts against the tenant's maxConcurrent and CPU budget, and
// takes its turn in the fair rotation), with the input the dispatch queued, under the hook's
// deadline. Then the completion goes where it must: the audit sink, the library events, and (by
// the queue) the tenant's event stream.
import { hookError } from '../contract/error-codes.js';
import type { HookAnswer } from '../contract/fold.js';
import type { AsyncJob } from '../dispatch/async-job.js';
import type { DispatchContext } from '../dispatch/context.js';
import type { Generation } from '../dispatch/generation.js';
import { reportAuditFailure } from '../dispatch/record.js';
import { DispatchRun, matchBudget } from '../dispatch/run.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import type { AsyncCompletion } from './async-events.js';
import { registryFor } from './async-job.js';

/** The executor's parts a job runs with (no `async`: a job's own hook runs, it is not queued again). */
export type JobContext = Omit<DispatchContext, 'async'>;

export interface Attempt {
  readonly answer: HookAnswer;
  /** When the attempt started (epoch ms). */
  readonly startedAt: number;
}

/** One attempt. Never throws for the hook's failure; `signal` aborts it (the queue is closing). */
export async function runAttempt(
  gen: Generation,
  ctx: JobContext,
  hook: HookDefinition,
  job: AsyncJob,
  signal: AbortSignal,
): Promise<Attempt> {
  const startedAt = Date.now();
  const def = gen.catalogue.get(job.event);
  if (def === undefined) {
    const message = `event "${job.event}" is not in this configuration's catalogue`;
    return {
      answer: { kind: 'failure', error: hookError('config_mismatch', message), latencyMs: 0, queuedMs: 0 },
      startedAt,
    };
  }
  const run = new DispatchRun({
    gen,
    ctx,
    options: { tenant: job.tenant, signal },
    def,
    registry: registryFor(gen, job.tenant),
    sessionId: job.sessionId,
    budget: matchBudget(),
  });
  return { answer: await run.execute(hook, job.input), startedAt };
}

/** Whether a failed attempt may be tried again (not when the queue closed under it). */
export function retryable(answer: HookAnswer): boolean {
  if (answer.kind !== 'failure') return false;
  return answer.error.code !== 'pool_closed' && answer.error.code !== 'aborted';
}

/**
 * Writes an async run's audit record (and its span, linked to the dispatch that queued it); a failed
 * write is reported like a dispatch's (never thrown).
 */
export function writeCompletion(ctx: JobContext, c: AsyncCompletion): void {
  try {
    ctx.tracing?.asyncRun(c.record, undefined, c.job.queuedBy, c.job.enqueuedAt);
  } catch {
    // A tracer that throws (the caller's SDK) loses the span, nothing else.
  }
  ctx.decisions?.asyncRun(c.record);
  void ctx.audit?.write([c.record]).then((failure) => {
    if (failure !== undefined)
      reportAuditFailure(ctx, failure, { event: c.record.event, tenant: c.record.tenant, denied: false });
  });
}

/** Writes a completion to this process's audit sink (unless `audit: false`) and library events. */
export function deliverLocally(ctx: JobContext, c: AsyncCompletion, o: { audit?: boolean } = {}): void {
  if (o.audit !== false) writeCompletion(ctx, c);
  const events = ctx.events;
  if (events === undefined) return;
  if (events.has('hook.completed')) events.emit('hook.completed', c.record);
  if (events.has('async.completed')) events.emit('async.completed', c.completed);
  if (c.rewake !== undefined && events.has('rewake')) events.emit('rewake', c.rewake);
}
