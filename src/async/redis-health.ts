// Whether Redis answers, as seen from one connection, and the transitions an operator must hear
// about: the connection lost, back again, and credentials refused, each reported once (with its
// cause) rather than once per reconnect attempt. A connection that stays open while Redis no longer
// answers (a stalled server, a network partition) is caught by a PING every `probeMs`: one that has
// had no answer for `staleMs` counts as lost until one comes back. /readyz and the metrics read `up`.
import type { Redis } from 'ioredis';

/** One transition, for the log (a warning each). */
export interface RedisTrouble {
  readonly kind: 'lost' | 'reconnected' | 'auth_failed';
  /** What happened, without the URL (which may hold a password). */
  readonly cause: string;
  /** `reconnected`: how long Redis was gone. */
  readonly downMs?: number;
}

/** Redis reply error codes that mean the credentials were refused (the first word of the reply). */
const AUTH_CODES: ReadonlySet<string> = new Set(['WRONGPASS', 'NOAUTH', 'NOPERM']);

/** The cause of an error as the log says it: its code and message, one line, no URL. */
function describe(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown };
  const message = typeof e.message === 'string' ? e.message : String(err);
  const line = message
    .split('\n')[0]!
    .replace(/rediss?:\/\/\S*/g, '<url>')
    .slice(0, 300);
  return typeof e.code === 'string' && !line.includes(e.code) ? `${e.code}: ${line}` : line;
}

/** Whether a Redis reply error says the credentials were refused (by its reply code, not its text). */
function isAuthFailure(err: unknown): boolean {
  const e = err as { name?: unknown; message?: unknown };
  if (e.name !== 'ReplyError' || typeof e.message !== 'string') return false;
  // A reply error's message starts with the error code Redis sent (RESP "-WRONGPASS …").
  const code = /^(?:ready check failed: )?([A-Z]+)\b/.exec(e.message)?.[1];
  return code !== undefined && AUTH_CODES.has(code);
}

export class RedisHealth {
  readonly #client: Redis;
  readonly #report: (t: RedisTrouble) => void;
  readonly #staleMs: number;
  #state: 'starting' | 'up' | 'down' = 'starting';
  #cause: string | undefined;
  #downSince = 0;
  #authReported = false;
  /** When the PING in flight was sent (undefined: none in flight). */
  #pingSince: number | undefined;
  #closed = false;
  readonly #timer: NodeJS.Timeout;

  constructor(client: Redis, report: (t: RedisTrouble) => void, probeMs = 1_000, staleMs = 2_500) {
    this.#client = client;
    this.#report = report;
    this.#staleMs = staleMs;
    client.on('error', (err: unknown) => this.#onError(err));
    client.on('close', () => this.#lost(this.#cause ?? 'the connection was closed'));
    client.on('ready', () => this.#up());
    this.#timer = setInterval(() => this.#probe(), probeMs).unref();
  }

  /** Whether Redis answers now: connected, and no PING left unanswered past `staleMs`. */
  get up(): boolean {
    return this.#state === 'up' && this.#client.status === 'ready';
  }

  close(): void {
    clearInterval(this.#timer);
    // Closing is not an outage: nothing more is reported.
    this.#closed = true;
  }

  #onError(err: unknown): void {
    if (this.#closed) return;
    this.#cause = describe(err);
    if (isAuthFailure(err) && !this.#authReported) {
      this.#authReported = true;
      this.#report({ kind: 'auth_failed', cause: this.#cause });
    }
  }

  #lost(cause: string): void {
    if (this.#closed || this.#state === 'down') return;
    this.#state = 'down';
    this.#downSince = performance.now();
    this.#report({ kind: 'lost', cause });
  }

  #up(): void {
    this.#pingSince = undefined;
    if (this.#closed) return;
    const was = this.#state;
    this.#state = 'up';
    this.#authReported = false;
    if (was === 'down')
      this.#report({
        kind: 'reconnected',
        cause: this.#cause ?? 'unknown',
        downMs: Math.round(performance.now() - this.#downSince),
      });
    this.#cause = undefined;
  }

  #probe(): void {
    if (this.#client.status !== 'ready') return;
    const now = performance.now();
    if (this.#pingSince !== undefined) {
      if (now - this.#pingSince > this.#staleMs)
        this.#lost(`Redis did not answer a PING within ${this.#staleMs} ms (connection open, server silent)`);
      return;
    }
    this.#pingSince = now;
    this.#client.ping().then(
      () => {
        if (this.#state === 'down' && this.#client.status === 'ready') this.#up();
        this.#pingSince = undefined;
      },
      (err: unknown) => {
        this.#pingSince = undefined;
        this.#onError(err);
      },
    );
  }
}

/**
 * ioredis's reconnect delays for every connection of the queue: quick and capped at 1 s (plus up to
 * 200 ms of jitter), so readiness follows Redis within a couple of seconds of its return rather than
 * after ioredis's default back-off (5 s) or BullMQ's (20 s).
 */
export const reconnectDelay = (times: number): number =>
  Math.min(100 * 2 ** Math.max(0, times - 1), 1_000) + Math.floor(Math.random() * 200);
