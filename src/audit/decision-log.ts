// Decision logs to a remote sink (docs/tenants-and-audit.md "Decision logs"): the audit records of
// every dispatch that ran a hook, with its verdict, and of every async run, as events in OPA's
// decision-log shape (labels, decision_id, timestamp, path, result), POSTed in batches as a gzipped
// JSON array. Never on a dispatch's path: an event is put in a bounded buffer and the dispatch goes
// on; a sink that is slow, down or refusing never changes or delays a verdict. Failed uploads are
// retried with a doubling wait (the batch stays first in line); past the buffer's bound the oldest
// events are dropped. Losses are counted (stats) and reported (onProblem: the executor's log), and
// the return of the sink too. At-least-once: a batch whose answer was lost is sent again, so sinks
// deduplicate by decision_id.
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { VERSION } from '../contract/version.js';
import type { AuditRecord } from './audit-log.js';
import { type DecisionLogSettings, sinkName } from './decision-log-options.js';

/** One event: a dispatch's verdict and hook records, or an async run's record. */
export interface DecisionEvent {
  readonly decision_id: string;
  readonly timestamp: string;
  readonly labels: Readonly<Record<string, string>>;
  /** The event dispatched (OPA: the policy path queried). */
  readonly path: string;
  readonly tenant?: string;
  /** A dispatch's verdict: decision, the deciding hook, interrupted. Absent for an async run. */
  readonly result?: { decision: string; decided_by?: string; interrupted?: true };
  /** An async run's id (its dispatch's `queued` record has the same). */
  readonly async_id?: string;
  readonly hooks: readonly AuditRecord[];
  /** The dispatch's span, when traced (hex ids). */
  readonly trace_id?: string;
  readonly span_id?: string;
}

/** What the sink has done so far (the service's metrics read it). */
export interface DecisionLogStats {
  /** Events the sink accepted. */
  readonly sent: number;
  /** Events given up: the buffer was full, the sink refused their batch, or the executor closed first. */
  readonly dropped: number;
  /** Uploads that failed (a refused or unanswered request, an error status). */
  readonly failedUploads: number;
  /** Events waiting to be sent. */
  readonly buffered: number;
}

/** A problem with the sink, or its return: what the log says. */
export interface DecisionLogProblem {
  readonly kind: 'failing' | 'refused' | 'dropped' | 'recovered';
  /** The sink, without credentials or query. */
  readonly sink: string;
  readonly message: string;
  readonly stats: DecisionLogStats;
}

/** While uploads keep failing, a `failing` report at most this often. */
const REPORT_EVERY_MS = 60_000;

export class DecisionLog {
  readonly #o: DecisionLogSettings;
  readonly #labels: Readonly<Record<string, string>>;
  readonly #report: (p: DecisionLogProblem) => void;
  #buffer: DecisionEvent[] = [];
  #sent = 0;
  #dropped = 0;
  #failedUploads = 0;
  /** Consecutive failed uploads (0: the sink answers). */
  #failing = 0;
  #lastReport = 0;
  #timer: NodeJS.Timeout | undefined;
  #uploading: Promise<void> | undefined;
  #closed = false;
  /** close()'s signal: aborting it cuts the uploads of the close short. */
  #stop: AbortSignal | undefined;

  constructor(settings: DecisionLogSettings, report: (p: DecisionLogProblem) => void) {
    this.#o = settings;
    this.#report = report;
    this.#labels = Object.freeze({
      id: randomUUID(),
      app: 'hookwarden',
      version: VERSION,
      ...settings.labels,
    });
  }

  stats(): DecisionLogStats {
    return {
      sent: this.#sent,
      dropped: this.#dropped,
      failedUploads: this.#failedUploads,
      buffered: this.#buffer.length,
    };
  }

  /** A dispatch that ran hooks: its verdict and records. */
  dispatched(
    e: Pick<DecisionEvent, 'path' | 'tenant' | 'result' | 'hooks'>,
    traceparent: string | undefined,
  ): void {
    const ids = traceparent?.split('-');
    this.#add({
      ...this.#head(),
      ...e,
      ...(ids?.length === 4 ? { trace_id: ids[1]!, span_id: ids[2]! } : {}),
    });
  }

  /** An async run's end: its record. */
  asyncRun(record: AuditRecord): void {
    this.#add({
      ...this.#head(),
      path: record.event,
      ...(record.tenant !== undefined ? { tenant: record.tenant } : {}),
      ...(record.asyncId !== undefined ? { async_id: record.asyncId } : {}),
      hooks: [record],
    });
  }

  #head() {
    return { decision_id: randomUUID(), timestamp: new Date().toISOString(), labels: this.#labels };
  }

  #add(event: DecisionEvent): void {
    if (this.#closed) {
      this.#lose(1, 'the executor was closed');
      return;
    }
    this.#buffer.push(event);
    this.#trim();
    if (this.#buffer.length >= this.#o.maxBatchEvents) this.#schedule(0);
    else this.#schedule(this.#o.flushIntervalMs);
  }

  /** Drops the oldest events past the bound. */
  #trim(): void {
    const over = this.#buffer.length - this.#o.maxBufferedEvents;
    if (over <= 0) return;
    this.#buffer.splice(0, over);
    this.#lose(over, `the buffer is full (${this.#o.maxBufferedEvents} events): the oldest were dropped`);
  }

  #lose(n: number, why: string): void {
    this.#dropped += n;
    this.#say('dropped', `${n} decision-log event${n === 1 ? '' : 's'} dropped: ${why}`);
  }

  /** Reports a problem; while the sink keeps failing, at most once a minute (counts say the rest). */
  #say(kind: DecisionLogProblem['kind'], message: string, always = false): void {
    const now = Date.now();
    if (!always && now - this.#lastReport < REPORT_EVERY_MS) return;
    this.#lastReport = now;
    try {
      this.#report({ kind, sink: sinkName(this.#o.url), message, stats: this.stats() });
    } catch {
      // A reporter that throws changes nothing here.
    }
  }

  /** Sends the next batch after `delayMs`, unless an upload or a wait is already under way. */
  #schedule(delayMs: number): void {
    if (this.#uploading !== undefined || this.#closed) return;
    if (this.#timer !== undefined) {
      // A batch is full: send now, unless the sink is failing (its back-off stands).
      if (delayMs > 0 || this.#failing > 0) return;
      clearTimeout(this.#timer);
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#uploading = this.#uploadNext(this.#o.timeoutMs).finally(() => {
        this.#uploading = undefined;
        this.#afterUpload();
      });
    }, delayMs).unref();
  }

  #afterUpload(): void {
    if (this.#buffer.length === 0 || this.#closed) return;
    if (this.#failing > 0) {
      const wait = Math.min(this.#o.maxRetryDelayMs, this.#o.retryDelayMs * 2 ** (this.#failing - 1));
      this.#schedule(Math.round(wait * (1 + Math.random() * 0.2)));
    } else this.#schedule(this.#buffer.length >= this.#o.maxBatchEvents ? 0 : this.#o.flushIntervalMs);
  }

  /** Uploads the oldest batch; on failure it goes back first in line. Resolves whether it was sent. */
  async #uploadNext(timeoutMs: number): Promise<void> {
    const batch = this.#buffer.splice(0, this.#o.maxBatchEvents);
    if (batch.length === 0) return;
    const outcome = await this.#post(batch, timeoutMs);
    if (outcome.ok) {
      this.#sent += batch.length;
      if (this.#failing > 0) {
        const message = `the decision-log sink answers again after ${this.#failing} failed upload${this.#failing === 1 ? '' : 's'}`;
        this.#failing = 0;
        this.#say('recovered', message, true);
      }
      return;
    }
    this.#failedUploads++;
    if (outcome.permanent) {
      // The sink refuses this batch for what it is (400, 413…): sending it again cannot help.
      this.#dropped += batch.length;
      this.#say(
        'refused',
        `the decision-log sink refused a batch of ${batch.length}: ${outcome.message}; dropped`,
        true,
      );
      return;
    }
    this.#failing++;
    this.#buffer = [...batch, ...this.#buffer];
    this.#trim();
    this.#say(
      'failing',
      `decision-log upload failed (${outcome.message}); ${this.#buffer.length} events kept and sent again, the verdicts are not affected`,
      this.#failing === 1,
    );
  }

  async #post(
    batch: readonly DecisionEvent[],
    timeoutMs: number,
  ): Promise<{ ok: true } | { ok: false; permanent: boolean; message: string }> {
    const json = Buffer.from(JSON.stringify(batch));
    const body = this.#o.gzip ? gzipSync(json) : json;
    try {
      const res = await fetch(this.#o.url, {
        method: 'POST',
        headers: {
          ...this.#o.headers,
          'content-type': 'application/json',
          ...(this.#o.gzip ? { 'content-encoding': 'gzip' } : {}),
        },
        body,
        signal:
          this.#stop === undefined
            ? AbortSignal.timeout(timeoutMs)
            : AbortSignal.any([AbortSignal.timeout(timeoutMs), this.#stop]),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.ok) return { ok: true };
      const permanent = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
      return { ok: false, permanent, message: `HTTP ${res.status}` };
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      const why =
        e.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message);
      return { ok: false, permanent: false, message: why };
    }
  }

  /**
   * Sends what is buffered, for at most `timeoutMs` (none once `signal` is aborted: a forced stop),
   * then stops; what could not be sent is dropped (counted and reported). Idempotent.
   */
  async close(timeoutMs = this.#o.timeoutMs, signal?: AbortSignal): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const deadline = Date.now() + timeoutMs;
    this.#stop = signal;
    if (signal?.aborted !== true) await this.#uploading;
    while (this.#buffer.length > 0 && Date.now() < deadline && signal?.aborted !== true) {
      const before = this.#failedUploads;
      await this.#uploadNext(Math.max(1, deadline - Date.now()));
      if (this.#failedUploads !== before) break;
    }
    if (this.#buffer.length > 0) {
      const n = this.#buffer.length;
      this.#buffer = [];
      this.#dropped += n;
      this.#say(
        'dropped',
        `${n} decision-log events dropped at close: the sink did not take them in time`,
        true,
      );
    }
  }
}
