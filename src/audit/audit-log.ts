// The record stage: one audit record per executed hook, metadata only — never the hook's input or
// output content. Sinks: a hash-chained JSONL file (written before dispatch() resolves), a callback,
// and the executor's `hook.completed` events.
import type { HookRecord } from '../contract/result.js';
import { type AuditKey, toAuditKey } from './audit-key.js';
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
 * A JSONL file path, a callback, or `{ file, key, fsync, onRecord }`. `fsync: true` flushes the file
 * to the disk before dispatch() resolves (survives an OS crash, not only a process crash).
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
    };

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export class AuditLog {
  readonly #file: ChainedFile | undefined;
  readonly #callback: ((record: AuditRecord) => void) | undefined;

  constructor(option: AuditOption) {
    if (typeof option === 'string') this.#file = new ChainedFile(option, false);
    else if (typeof option === 'function') this.#callback = option;
    else {
      if (option.key !== undefined && option.file === undefined)
        throw new Error('key: a key authenticates an audit file; give audit.file too');
      const key = option.key === undefined ? undefined : toAuditKey(option.key);
      if (option.file !== undefined) this.#file = new ChainedFile(option.file, option.fsync === true, key);
      this.#callback = option.onRecord;
    }
  }

  /** Writes the records of one dispatch. */
  write(records: readonly AuditRecord[]): void {
    if (records.length === 0) return;
    this.#file?.append(records as unknown as Record<string, unknown>[]);
    if (this.#callback !== undefined) for (const r of records) this.#callback(r);
  }
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
  for (const [i, h] of hooks.entries()) {
    if (h.outcome === 'not-run') continue;
    const r: AuditRecord = {
      time,
      event,
      hookId: h.id,
      scope: h.scope,
      type: h.type,
      outcome: h.outcome,
      queuedMs: round(h.queuedMs),
      runMs: round(h.latencyMs),
      deadlineMs: deadlines[i] ?? 0,
    };
    if (tenant !== undefined) r.tenant = tenant;
    if (h.error !== undefined) r.errorCode = h.error.code;
    if (h.memoryBytes !== undefined) r.memoryBytes = h.memoryBytes;
    if (h.asyncId !== undefined) r.asyncId = h.asyncId;
    if (h.containment !== undefined) r.containment = h.containment;
    if (h.retried !== undefined) r.retriedAfter = h.retried.code;
    out.push(r);
  }
  return out;
}
