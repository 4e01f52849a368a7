// The event feed of Redis mode: one Redis stream per tenant (`<prefix>:events:t:<tenant>`, or
// `<prefix>:events:none`), written once per completion by the replica that completed the job
// (redis-queue.ts, in the same script that marks it complete), capped at `replayEvents` entries.
// Any replica serves any client: an event id is the stream entry id, so a client that reconnects
// elsewhere resumes with its Last-Event-ID. Each open stream holds one Redis connection (XREAD
// BLOCK); when Redis goes away the stream ends and the client reconnects with its last id.
import { Redis } from 'ioredis';
import type { EventFeed, FeedEvent, FeedEventType, FeedSubscriber } from './event-feed.js';

export const streamKey = (prefix: string, tenant: string | undefined) =>
  tenant === undefined ? `${prefix}:events:none` : `${prefix}:events:t:${tenant}`;

/** -1, 0, 1 as stream id a sorts before, with or after b. */
function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(BigInt) as [bigint, bigint];
  const [bm, bs] = b.split('-').map(BigInt) as [bigint, bigint];
  return am !== bm ? (am < bm ? -1 : 1) : as === bs ? 0 : as < bs ? -1 : 1;
}

const BLOCK_MS = 5_000;
const TYPES: ReadonlySet<string> = new Set<FeedEventType>(['async.completed', 'rewake']);

/**
 * A stream entry as an event, or undefined when it is not one this version wrote (something else
 * with access to Redis, or another version): skipped, like any malformed input, never thrown.
 */
function feedEventOf(id: string, fields: readonly string[]): FeedEvent | undefined {
  const value = (name: string) => {
    for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
    return undefined;
  };
  const type = value('type');
  const text = value('data');
  if (type === undefined || !TYPES.has(type) || text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  return { id, type: type as FeedEventType, data: data as FeedEvent['data'] };
}

export class RedisFeed implements EventFeed {
  readonly #url: string;
  readonly #prefix: string;
  readonly #open = new Set<{ sub: FeedSubscriber; conn: Redis }>();

  constructor(url: string, prefix: string) {
    this.#url = url;
    this.#prefix = prefix;
  }

  async subscribe(tenant: string | undefined, lastId: string | undefined, sub: FeedSubscriber) {
    const key = streamKey(this.#prefix, tenant);
    const conn = new Redis(this.#url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      retryStrategy: () => null,
    });
    conn.on('error', () => {}); // reported by the read loop below
    const entry = { sub, conn };
    let cursor: string;
    try {
      if (lastId === undefined) {
        // From now on: the newest id now, so that an event written before the first XREAD is not missed.
        const last = (await conn.xrevrange(key, '+', '-', 'COUNT', 1)) as [string, string[]][];
        cursor = last[0]?.[0] ?? '0-0';
      } else {
        cursor = lastId;
        if (await this.#lostAfter(conn, key, lastId)) sub.lost();
      }
    } catch (err) {
      conn.disconnect();
      throw err;
    }
    this.#open.add(entry);
    void this.#read(entry, key, cursor);
    return () => {
      this.#open.delete(entry);
      conn.disconnect();
    };
  }

  /** Whether entries after `lastId` were trimmed away (or the id is from the future: another Redis). */
  async #lostAfter(conn: Redis, key: string, lastId: string): Promise<boolean> {
    const info = (await conn.call('XINFO', 'STREAM', key).catch(() => undefined)) as unknown[] | undefined;
    if (info === undefined) return lastId !== '0-0';
    const field = (name: string) => info[info.indexOf(name) + 1] as string;
    const maxDeleted = field('max-deleted-entry-id');
    if (maxDeleted !== undefined && compareIds(maxDeleted, lastId) > 0) return true;
    return compareIds(lastId, field('last-generated-id')) > 0;
  }

  async #read(entry: { sub: FeedSubscriber; conn: Redis }, key: string, from: string): Promise<void> {
    let cursor = from;
    while (this.#open.has(entry)) {
      let got: [string, [string, string[]][]][] | null;
      try {
        got = (await entry.conn.xread('BLOCK', BLOCK_MS, 'STREAMS', key, cursor)) as typeof got;
      } catch {
        if (!this.#open.has(entry)) return;
        this.#open.delete(entry);
        entry.conn.disconnect();
        entry.sub.end('the event stream lost its Redis connection; reconnect with Last-Event-ID');
        return;
      }
      for (const [, entries] of got ?? []) {
        for (const [id, fields] of entries) {
          cursor = id;
          const e = feedEventOf(id, fields);
          if (e !== undefined && this.#open.has(entry)) entry.sub.event(e);
        }
      }
    }
  }

  endAll(reason: string): void {
    for (const e of [...this.#open]) {
      this.#open.delete(e);
      e.conn.disconnect();
      e.sub.end(reason);
    }
  }
}
