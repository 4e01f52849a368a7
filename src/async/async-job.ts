// An async job on the queue's side (its shape: src/dispatch/async-job.ts): the retry wait, the
// registry and hook it names, and, in Redis mode, its data read back by any replica: parseJobData
// checks it like any other input from outside.
import type { BackoffStrategy, Job } from 'bullmq';
import { z } from 'zod';
import { LIMIT_BOUNDS } from '../config/defaults.js';
import { tenantIdProblem } from '../config/tenant-id.js';
import { type HookError, hookError } from '../contract/error-codes.js';
import { SCOPES } from '../contract/scopes.js';
import type { HookInput } from '../contract/types.js';
import { type AsyncJob, hookDigest } from '../dispatch/async-job.js';
import type { Generation } from '../dispatch/generation.js';
import type { AsyncHookSpec, HookDefinition } from '../registry/hook-definition.js';

/**
 * The wait before retry number `retry` (1 = the first retry), at most a day (the bound of
 * `retryBackoffMs`): doubling 100 times would otherwise hold a job (and its tenant's place) for
 * ever, and a wait past 2^31 ms makes setTimeout fire at once.
 */
export function retryDelayMs(
  spec: Pick<AsyncHookSpec, 'retryBackoff' | 'retryBackoffMs'>,
  retry: number,
): number {
  const wait = spec.retryBackoff === 'fixed' ? spec.retryBackoffMs : spec.retryBackoffMs * 2 ** (retry - 1);
  return Math.min(wait, LIMIT_BOUNDS.retryBackoffMs);
}

/** Redis mode's retry wait (BullMQ's own exponential strategy has no bound): retryDelayMs, capped. */
export const backoffOf: BackoffStrategy = (attemptsMade, type, _err, job) => {
  const b = job?.opts.backoff;
  const retryBackoffMs = typeof b === 'object' ? (b.delay ?? 0) : (b ?? 0);
  return retryDelayMs(
    { retryBackoff: type === 'hookwarden-fixed' ? 'fixed' : 'exponential', retryBackoffMs },
    attemptsMade,
  );
};

/** The registry a tenant's (or a tenant-less) dispatch runs. */
export function registryFor(gen: Generation, tenant: string | undefined) {
  return tenant === undefined ? gen.registry : (gen.tenants.get(tenant) ?? gen.policyOnly).registry;
}

/** The configured async hook a job names, in this generation, if its spec is the same. */
export function findJobHook(gen: Generation, job: AsyncJob): HookDefinition | undefined {
  for (const h of registryFor(gen, job.tenant).hooksFor(job.event)) {
    if (h.type === 'trusted' || h.id !== job.hookId || h.scope !== job.scope || h.async === undefined)
      continue;
    if (hookDigest(h) === job.digest) return h;
  }
  return undefined;
}

const jobDataSchema = z.strictObject({
  asyncId: z.string().regex(/^[0-9a-f-]{36}$/),
  tenant: z
    .string()
    .refine((t) => tenantIdProblem(t) === undefined)
    .optional(),
  sessionId: z.string().max(4096),
  event: z.string().min(1).max(256),
  hookId: z.string().min(1).max(256),
  scope: z.enum(SCOPES),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  input: z.record(z.string(), z.unknown()),
  enqueuedAt: z.number().int().nonnegative(),
  queuedBy: z
    .string()
    .regex(/^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/)
    .optional(),
});

/** A job's data as stored in Redis; undefined when it is not a job this version wrote. */
export function parseJobData(data: unknown): AsyncJob | undefined {
  const parsed = jobDataSchema.safeParse(data);
  if (!parsed.success) return undefined;
  const { tenant, queuedBy, ...rest } = parsed.data;
  return { ...rest, tenant, input: rest.input as HookInput, ...(queuedBy !== undefined ? { queuedBy } : {}) };
}

/**
 * What BullMQ's failure of a job means for its hook: a job that stalled more than maxStalledCount
 * carries BullMQ's deferred failure (its stalled-job check is the only thing that sets one), so it is
 * `job_stalled` by that, never by the words of `err`; another failure of its last attempt is
 * `queue_unavailable`; undefined: BullMQ will try the job again.
 */
export function queueFailure(
  bjob: Pick<Job, 'deferredFailure' | 'attemptsMade' | 'opts'>,
  err: Error,
): HookError | undefined {
  if ((bjob.deferredFailure ?? '') !== '') return hookError('job_stalled', `the job stalled: ${err.message}`);
  if (bjob.attemptsMade < (bjob.opts.attempts ?? 1)) return undefined;
  return hookError('queue_unavailable', `the queue failed the job: ${err.message}`);
}
