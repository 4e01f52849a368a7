// createExecutor's `queue` option: where async hooks wait (in-process, or BullMQ on Redis), checked.
import { z } from 'zod';
import { DEFAULTS } from '../config/defaults.js';
import { refuseUnknownOptions } from '../config/option-keys.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { issueMessages } from '../contract/messages.js';

export interface QueueOptions {
  /**
   * `redis://[user:password@]host:port[/db]`: async hooks become BullMQ jobs shared by every
   * executor (replica) on this Redis, and `tenantRatePerSec` is counted there (docs/scaling.md).
   */
  redis?: string;
  /** Redis mode: prefix of every key. Default "hookwarden". */
  prefix?: string;
  /** Redis mode: false makes this executor enqueue only (it never runs jobs). Default true. */
  work?: boolean;
  /** Redis mode: a job whose replica stopped renewing its lock this long runs elsewhere. Default 30000. */
  lockDurationMs?: number;
  /** Async hooks run at once by this executor (the rest wait their turn). Default 8. */
  concurrency?: number;
  /** Completion and rewake events kept per tenant for `Last-Event-ID` resumption. Default 1000. */
  replayEvents?: number;
  /**
   * Redis mode: a job that no replica with its hook's spec (the same configuration) has taken this
   * long after it was queued completes `config_mismatch`, not run. Default 60000.
   */
  mismatchTimeoutMs?: number;
}

const queueOptionsSchema = z.strictObject({
  redis: z
    .string()
    .max(2048)
    .refine((u) => /^rediss?:\/\/[^\s]+$/.test(u) && URL.canParse(u), {
      error: 'expected a URL like redis://127.0.0.1:6379',
    })
    .optional(),
  prefix: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, { error: 'expected 1-64 letters, digits, "_", ".", ":" or "-"' })
    .optional(),
  work: z.boolean().optional(),
  lockDurationMs: z.number().int().min(100).max(3_600_000).optional(),
  concurrency: z.number().int().min(1).max(1024).optional(),
  replayEvents: z.number().int().min(1).max(1_000_000).optional(),
  mismatchTimeoutMs: z.number().int().min(100).max(86_400_000).optional(),
});

const QUEUE_KEYS: ReadonlySet<string> = new Set(Object.keys(queueOptionsSchema.shape));

export interface ResolvedQueueOptions {
  readonly redis: string | undefined;
  readonly prefix: string;
  readonly work: boolean;
  readonly lockDurationMs: number;
  readonly concurrency: number;
  readonly replayEvents: number;
  readonly mismatchTimeoutMs: number;
}

/** The `queue` option checked, with its defaults; an invalid one is `invalid_options`, naming each field. */
export function resolveQueueOptions(raw: QueueOptions | undefined): ResolvedQueueOptions {
  refuseUnknownOptions(raw, QUEUE_KEYS, 'queue');
  const queue = queueOptionsSchema.safeParse(raw ?? {});
  if (!queue.success) {
    const problems = issueMessages(queue.error.issues, withoutPassword(raw), 'queue').map(
      (m) => `${m.path}: ${m.message}`,
    );
    throw new HookwardenError('invalid_options', problems.join('; '), { problems });
  }
  return Object.freeze({
    redis: queue.data.redis,
    prefix: queue.data.prefix ?? 'hookwarden',
    work: queue.data.work !== false,
    lockDurationMs: queue.data.lockDurationMs ?? DEFAULTS.async.lockDurationMs,
    concurrency: queue.data.concurrency ?? DEFAULTS.async.concurrency,
    replayEvents: queue.data.replayEvents ?? DEFAULTS.async.replayEvents,
    mismatchTimeoutMs: queue.data.mismatchTimeoutMs ?? DEFAULTS.async.mismatchTimeoutMs,
  });
}

/** `raw` with the user and password of its Redis URL masked: errors are logged. */
function withoutPassword(raw: QueueOptions | undefined): unknown {
  const url = raw?.redis;
  if (typeof url !== 'string') return raw;
  const start = url.indexOf('://');
  const at = url.lastIndexOf('@');
  return start >= 0 && at > start ? { ...raw, redis: `${url.slice(0, start + 3)}***${url.slice(at)}` } : raw;
}
