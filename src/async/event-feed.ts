// A tenant's stream of async events (`async.completed`, `rewake`), as `GET /v1/events` serves it
// over Server-Sent Events: each event has an id, and a client that reconnects with the last id it
// saw (`Last-Event-ID`) gets the events after it that are still kept, then the live ones. If some
// were dropped meanwhile (the replay buffer is bounded, or the process restarted), it is told so
// (`lost`) rather than left to believe it saw everything.
//
// The embedded feed below keeps the last `replayEvents` events of each tenant in memory; the Redis
// feed (redis-feed.ts) reads a Redis stream per tenant, so any replica can resume any client.
import type { AsyncCompletedEvent, RewakeEvent } from '../contract/async-events.js';

export type FeedEventType = 'async.completed' | 'rewake';

export interface FeedEvent {
  /** `<a>-<b>`, both decimal (a Redis stream id, or `<boot time>-<sequence>` in memory). */
  readonly id: string;
  readonly type: FeedEventType;
  readonly data: AsyncCompletedEvent | RewakeEvent;
}

export interface FeedSubscriber {
  event(e: FeedEvent): void;
  /** Events after the client's Last-Event-ID were dropped before it came back. */
  lost(): void;
  /** The feed cannot go on (Redis went away): the client should reconnect. */
  end(reason: string): void;
}

export interface EventFeed {
  /**
   * Streams one tenant's events (tenant undefined: dispatches without a tenant) to `sub`: those
   * after `lastId` that are still kept, then live ones; without `lastId`, from now on. Resolves with
   * the function that stops it.
   */
  subscribe(tenant: string | undefined, lastId: string | undefined, sub: FeedSubscriber): Promise<() => void>;
  /** Every subscriber is told to go (the server or the executor is stopping). */
  endAll(reason: string): void;
}

/** The form of every feed's event ids (what a `Last-Event-ID` header must look like). */
export const FEED_ID = /^\d{1,20}-\d{1,20}$/;

interface TenantLog {
  readonly events: FeedEvent[];
  /** Sequence number of the last event dropped from `events` (0: none). */
  droppedUpTo: number;
  readonly subscribers: Set<FeedSubscriber>;
}

/** Tenants whose events are kept at once; past it, the least recently active one is forgotten. */
const MAX_FEED_TENANTS = 1024;

export class MemoryFeed implements EventFeed {
  readonly #boot = String(Date.now());
  readonly #replay: number;
  /** By tenant key; Map order = least recently active first. */
  readonly #tenants = new Map<string, TenantLog>();
  #seq = 0;
  #forgotten = false;

  constructor(replayEvents: number) {
    this.#replay = replayEvents;
  }

  #log(tenant: string | undefined): TenantLog {
    const key = tenant ?? '';
    let log = this.#tenants.get(key);
    if (log !== undefined) {
      this.#tenants.delete(key);
      this.#tenants.set(key, log);
      return log;
    }
    if (this.#tenants.size >= MAX_FEED_TENANTS) {
      for (const [k, l] of this.#tenants)
        if (l.subscribers.size === 0) {
          this.#tenants.delete(k);
          this.#forgotten = true;
          break;
        }
    }
    // After a tenant was forgotten, a new log cannot tell whether this one's events were among them.
    log = { events: [], droppedUpTo: this.#forgotten ? this.#seq : 0, subscribers: new Set() };
    this.#tenants.set(key, log);
    return log;
  }

  publish(tenant: string | undefined, type: FeedEventType, data: FeedEvent['data']): void {
    const log = this.#log(tenant);
    const e: FeedEvent = { id: `${this.#boot}-${++this.#seq}`, type, data };
    log.events.push(e);
    if (log.events.length > this.#replay) {
      const dropped = log.events.shift()!;
      log.droppedUpTo = sequenceOf(dropped.id);
    }
    for (const s of log.subscribers) s.event(e);
  }

  async subscribe(
    tenant: string | undefined,
    lastId: string | undefined,
    sub: FeedSubscriber,
  ): Promise<() => void> {
    const log = this.#log(tenant);
    if (lastId !== undefined) {
      const [boot] = lastId.split('-');
      const after = boot === this.#boot ? sequenceOf(lastId) : 0;
      // Another boot's id: whatever it had not seen of that run is gone with it.
      if (boot !== this.#boot || after < log.droppedUpTo) sub.lost();
      for (const e of log.events) if (sequenceOf(e.id) > after) sub.event(e);
    }
    log.subscribers.add(sub);
    return () => {
      log.subscribers.delete(sub);
    };
  }

  /** Every subscriber is told to go (the executor is closing). */
  endAll(reason: string): void {
    for (const log of this.#tenants.values()) {
      for (const s of log.subscribers) s.end(reason);
      log.subscribers.clear();
    }
  }
}

const sequenceOf = (id: string) => Number(id.slice(id.indexOf('-') + 1));
