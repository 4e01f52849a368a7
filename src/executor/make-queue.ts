// The async queue an executor gets: in-process by default, Redis (BullMQ) with `queue.redis`.

import type { AsyncQueue, QueueHost } from '../async/async-queue.js';
import { EmbeddedQueue } from '../async/embedded-queue.js';
import type { RedisTrouble } from '../async/redis-health.js';
import type { RedisQueue } from '../async/redis-queue.js';
import { DEFAULTS } from '../config/defaults.js';
import type { ResolvedQueueOptions } from './queue-options.js';

/** The Redis queue's module, loaded by createExecutor only in Redis mode (BullMQ: ~110 ms to load). */
export type RedisModule = { RedisQueue: typeof RedisQueue };

export const loadRedisModule = (o: ResolvedQueueOptions): Promise<RedisModule | undefined> =>
  o.redis === undefined ? Promise.resolve(undefined) : import('../async/redis-queue.js');

export function makeQueue(
  host: QueueHost,
  o: ResolvedQueueOptions,
  redis: RedisModule | undefined,
  onTrouble?: (t: RedisTrouble) => void,
): AsyncQueue {
  if (o.redis === undefined) return new EmbeddedQueue(host, o);
  if (redis === undefined) throw new Error('Redis mode: loadRedisModule() first');
  return new redis.RedisQueue(host, {
    url: o.redis,
    prefix: o.prefix,
    concurrency: o.concurrency,
    replayEvents: o.replayEvents,
    lockDurationMs: o.lockDurationMs,
    mismatchTimeoutMs: o.mismatchTimeoutMs,
    mismatchRetryMs: DEFAULTS.async.mismatchRetryMs,
    work: o.work,
    onTrouble,
  });
}
