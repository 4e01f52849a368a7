// The executor's async parts: the queue (in-process, or Redis with `queue.redis`) and the tenant
// rate limiter (its buckets in the same Redis), and how close() ends the queue (docs/scaling.md).
import type { AsyncQueue, QueueHost } from '../async/async-queue.js';
import { makeQueue, type RedisModule } from './make-queue.js';
import type { ResolvedQueueOptions } from './queue-options.js';
import { TenantRate } from './tenant-rate.js';

export function asyncParts(
  host: QueueHost,
  o: ResolvedQueueOptions,
  redis: RedisModule | undefined,
): { queue: AsyncQueue; rate: TenantRate } {
  const queue = makeQueue(host, o, redis);
  const store =
    redis !== undefined && queue instanceof redis.RedisQueue
      ? { client: queue.client, prefix: o.prefix, onUnavailable: () => queue.countUnavailable() }
      : undefined;
  return { queue, rate: new TenantRate(store) };
}

/** Drains the queue for at most `drainMs` (when given), then closes it: what is left is aborted. */
export async function closeQueue(
  queue: AsyncQueue,
  drainMs: number | undefined,
  signal?: AbortSignal,
): Promise<void> {
  if (drainMs !== undefined && Number.isFinite(drainMs) && drainMs > 0 && signal?.aborted !== true) {
    let stop = () => {};
    const aborted = new Promise<void>((resolve) => {
      stop = resolve;
      signal?.addEventListener('abort', stop, { once: true });
    });
    await Promise.race([queue.drain(drainMs), aborted]);
    signal?.removeEventListener('abort', stop);
  }
  await queue.close();
}
