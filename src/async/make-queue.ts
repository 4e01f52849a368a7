// The async queue an executor gets: in-process by default, Redis (BullMQ) with `queue.redis`.
import { DEFAULTS } from '../config/defaults.js';
import type { ResolvedQueueOptions } from '../executor/queue-options.js';
import type { AsyncQueue, QueueHost } from './async-queue.js';
import { EmbeddedQueue } from './embedded-queue.js';
import { RedisQueue } from './redis-queue.js';

export function makeQueue(host: QueueHost, o: ResolvedQueueOptions): AsyncQueue {
  if (o.redis === undefined) return new EmbeddedQueue(host, o);
  return new RedisQueue(host, {
    url: o.redis,
    prefix: o.prefix,
    concurrency: o.concurrency,
    replayEvents: o.replayEvents,
    lockDurationMs: o.lockDurationMs,
    mismatchTimeoutMs: o.mismatchTimeoutMs,
    mismatchRetryMs: DEFAULTS.async.mismatchRetryMs,
    work: o.work,
  });
}
