// The async queue an executor gets: in-process by default, Redis (BullMQ) with `queue.redis`.

import type { AsyncQueue, QueueHost } from '../async/async-queue.js';
import { EmbeddedQueue } from '../async/embedded-queue.js';
import { RedisQueue } from '../async/redis-queue.js';
import { DEFAULTS } from '../config/defaults.js';
import type { ResolvedQueueOptions } from './queue-options.js';

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
