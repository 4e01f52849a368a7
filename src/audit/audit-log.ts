// The record stage: one audit record per executed hook, metadata only — never the hook's input or
// output content. Sinks: a hash-chained JSONL file (written before dispatch() resolves), a callback,
// and the executor's `hook.completed` events.
import type { HookRecord } from '../contract/result.js';
import { type AuditKey, toAuditKey } from './audit-key.js';
import type { DecisionLogOptions } from './decision-log-options.js';
import { ChainedFile } from './hash-chain.js';

export interface AuditRecord {
  /** ISO time the dispatch finished. */
  time: string;
  tenant?: string;
  event: string;
  hookId: string;
  scope: HookRecord['scope'];
  type: HookRecord['type'];
  outcome: HookRecord['outcome'];
  errorCode?: string;
  /** Time waiting for a pool slot, ms. */
  queuedMs: number;
  /** Time running, ms. */
  runMs: number;
  /** The effective deadline (timeout widened by a declared budget), ms. */
  deadlineMs: number;
  /** JS hooks: bytes the QuickJS runtime held at the end. */
  memoryBytes?: number;
  /**
   * Async hooks: the id of the background run. The dispatch writes a `queued` record; the run's end
   * writes one more with the same asyncId (docs/scaling.md).
   */
  asyncId?: string;
  /** Async hooks, the record of the run's end: attempts made (0: it never ran). */
  attempts?: number;
  /** Command hooks: the containment the hook actually got. */
  containment?: HookRecord['containment'];
  /** The hook ran again on fresh machinery after this loss (an error code). */
  retriedAfter?: string;
}

/**
 * A JSONL file path, a callback, or `{ file, key, fsync, onRecord, required }`. `fsync: true` flushes
 * the file to the disk before dispatch() resolves (survives an OS crash, not only a process crash).
 */
export type AuditOption =
  | string
  | ((record: AuditRecord) => void)
  | {
      file?: string;
      /**
       * Makes the file keyed: every record is authenticated with HMAC-SHA-256 under this key (a key
       * file path — mode 0600, not a symlink — or at least 32 bytes, or a secret KeyObject). Without
       * it the chain gives integrity only. Keep it out of every hook's reach (README "Audit trail").
       */
      key?: AuditKey;
      fsync?: boolean;
      onRecord?: (record: AuditRecord) => void;
      /**
       * A dispatch whose records could not be written (after the retries) denies on deny-capable
       * events: no verdict without its record. Default false: the answer stands, with a warning.
       */
      required?: boolean;
      /**
       * Also send the records, with each dispatch's verdict, to an HTTP sink in batches (OPA's
       * decision-log shape; docs/tenants-and-audit.md "Decision logs"). Never delays or changes a verdict.
       */
      decisionLog?: DecisionLogOptions;
    };

/** A write that failed after its retries: reported in the log, the metrics and the result. */
export interface AuditFailure {
  /** The audit file (undefined: the `onRecord` callback threw). */
  readonly file: string | undefined;
  /** What went wrong, e.g. `EMFILE: too many open files, open '/var/log/hw/audit.jsonl'`. */
  readonly message: string;
  /** The system error code (EMFILE, ENOSPC, EISDIR…), when there is one. */
  readonly code: string | undefined;
  /** Records kept to be written with the next append that succeeds. */
  readonly pending: number;
  /** Records given up for good (the pending buffer was full). */
  readonly dropped: number;
}

/** Waits between the attempts of one append (the first is immediate): ~0.3 s in all. */
const RETRY_DELAYS_MS = [10, 50, 250];
/** Records held for a later append while the file cannot be written; past it the oldest are dropped. */
const MAX_PENDING = 10_000;

const round = (ms: number) => Math.round(ms * 1000) / 1000;
// Not unref'd: a one-shot CLI dispatch must not exit while its records are being retried.
const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class AuditLog {
  readonly #file: ChainedFile | undefined;
  readonly #callback: ((record: AuditRecord) => void) | undefined;
  /** See AuditOption `required`. */
  readonly required: boolean;
  /** Records a failed append left behind: written first by the next one. */
  #pending: AuditRecord[] = [];
  #dropped = 0;
  /** Appends one at a time, in call order (a retry must not race the next dispatch's records). */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(option: AuditOption) {
    if (typeof option === 'string') this.#file = new ChainedFile(option, false);
    else if (typeof option === 'function') this.#callback = option;
    else {
      if (option.key !== undefined && option.file === undefined)
        throw new Error('key: a key authenticates an audit file; give audit.file too');
      if (option.required !== undefined && typeof option.required !== 'boolean')
        throw new Error(`required: expected true or false, got ${JSON.stringify(option.required)}`);
      const key = option.key === undefined ? undefined : toAuditKey(option.key);
      if (option.file !== undefined) this.#file = new ChainedFile(option.file, option.fsync === true, key);
      this.#callback = option.onRecord;
    }
    this.required = typeof option === 'object' && option.required === true;
  }

  /**
   * Writes the records of one dispatch (or one async run). Never rejects: an append that fails is
   * tried again, then the records are kept for the next append and the failure is returned.
   */
  write(records: readonly AuditRecord[]): Promise<AuditFailure | undefined> {
    if (records.length === 0 && this.#pending.length === 0) return Promise.resolve(undefined);
    const run = this.#queue.then(() => this.#write(records));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #write(records: readonly AuditRecord[]): Promise<AuditFailure | undefined> {
    let failure: AuditFailure | undefined;
    if (this.#callback !== undefined) {
      try {
        for (const r of records) this.#callback(r);
      } catch (err) {
        failure = this.#failure(undefined, err);
      }
    }
    if (this.#file === undefined) return failure;
    const batch = this.#pending.length === 0 ? records : [...this.#pending, ...records];
    let last: unknown;
    for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
      if (attempt > 0) await wait(RETRY_DELAYS_MS[attempt - 1]!);
      try {
        this.#file.append(batch as unknown as Record<string, unknown>[]);
        this.#pending = [];
        return failure;
      } catch (err) {
        last = err;
      }
    }
    this.#pending = [...batch];
    if (this.#pending.length > MAX_PENDING) {
      this.#dropped += this.#pending.length - MAX_PENDING;
      this.#pending = this.#pending.slice(-MAX_PENDING);
    }
    return this.#failure(this.#file.path, last);
  }

  #failure(file: string | undefined, err: unknown): AuditFailure {
    const e = err as NodeJS.ErrnoException;
    return {
      file,
      message: file === undefined ? `the onRecord callback threw: ${e?.message}` : String(e?.message ?? err),
      code: typeof e?.code === 'string' ? e.code : undefined,
      pending: this.#pending.length,
      dropped: this.#dropped,
    };
  }
}

/** The audit record of one hook record (of a hook that ran: not-run records have none). */
export function auditRecordOf(
  event: string,
  tenant: string | undefined,
  h: HookRecord,
  deadlineMs: number,
  time: string,
): AuditRecord {
  const r: AuditRecord = {
    time,
    event,
    hookId: h.id,
    scope: h.scope,
    type: h.type,
    outcome: h.outcome,
    queuedMs: round(h.queuedMs),
    runMs: round(h.latencyMs),
    deadlineMs,
  };
  if (tenant !== undefined) r.tenant = tenant;
  if (h.error !== undefined) r.errorCode = h.error.code;
  if (h.memoryBytes !== undefined) r.memoryBytes = h.memoryBytes;
  if (h.asyncId !== undefined) r.asyncId = h.asyncId;
  if (h.containment !== undefined) r.containment = h.containment;
  if (h.retried !== undefined) r.retriedAfter = h.retried.code;
  return r;
}

/** The audit records of a dispatch: one per executed hook (not-run hooks are not executions). */
export function auditRecords(
  event: string,
  tenant: string | undefined,
  hooks: readonly HookRecord[],
  deadlines: readonly number[],
): AuditRecord[] {
  const time = new Date().toISOString();
  const out: AuditRecord[] = [];
  for (const [i, h] of hooks.entries())
    if (h.outcome !== 'not-run') out.push(auditRecordOf(event, tenant, h, deadlines[i] ?? 0, time));
  return out;
}
