// The executor's async parts: the queue (in-process, or Redis with `queue.redis`) and the tenant
// rate limiter (its buckets in the same Redis), and how close() ends the queue (docs/scaling.md).
import type { AsyncQueue, QueueHost } from '../async/async-queue.js';
import type { RedisTrouble } from '../async/redis-health.js';
import type { Diagnostic } from '../config/diagnostics.js';
import { makeQueue, type RedisModule } from './make-queue.js';
import type { ResolvedQueueOptions } from './queue-options.js';
import { TenantRate } from './tenant-rate.js';

/** A Redis transition as the warning the executor's onWarning (serve: its log) receives. */
function redisTroubleDiagnostic(t: RedisTrouble): Diagnostic {
  const message =
    t.kind === 'lost'
      ? `Redis is not answering (cause: ${t.cause}); async hooks fail queue_unavailable and tenant rates are counted on this replica alone until it is back`
      : t.kind === 'auth_failed'
        ? `Redis refused hookwarden's credentials (cause: ${t.cause}); fix the password in --queue or $HOOKWARDEN_QUEUE_URL (or the Redis user's permissions)`
        : `Redis is answering again after ${t.downMs ?? 0} ms (it was lost: ${t.cause})`;
  return { severity: 'warning', file: '<redis>', path: 'queue.redis', message, skipped: false };
}

export function asyncParts(
  host: QueueHost,
  o: ResolvedQueueOptions,
  redis: RedisModule | undefined,
  warn?: (d: Diagnostic) => void,
): { queue: AsyncQueue; rate: TenantRate } {
  const queue = makeQueue(
    host,
    o,
    redis,
    warn === undefined ? undefined : (t) => warn(redisTroubleDiagnostic(t)),
  );
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
