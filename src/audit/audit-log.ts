// The record stage: one audit record per executed hook, metadata only — never the hook's input or
// output content. Sinks: a JSONL file (appended synchronously, so a dispatch's records are on disk
// before dispatch() resolves) and/or a callback.
import { appendFileSync } from 'node:fs';
import type { HookRecord } from '../contract/result.js';

export interface AuditRecord {
  time: string;
  tenant?: string;
  event: string;
  hookId: string;
  scope: HookRecord['scope'];
  type: HookRecord['type'];
  outcome: HookRecord['outcome'];
  errorCode?: string;
  latencyMs: number;
  queuedMs: number;
}

/** A JSONL file path, a callback, or both. */
export type AuditOption =
  | string
  | ((record: AuditRecord) => void)
  | { file?: string; onRecord?: (record: AuditRecord) => void };

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export class AuditLog {
  readonly #file: string | undefined;
  readonly #callback: ((record: AuditRecord) => void) | undefined;

  constructor(option: AuditOption) {
    if (typeof option === 'string') this.#file = option;
    else if (typeof option === 'function') this.#callback = option;
    else {
      this.#file = option.file;
      this.#callback = option.onRecord;
    }
  }

  /** Records the executed hooks of one dispatch (not-run hooks are not executions). */
  recordDispatch(event: string, tenant: string | undefined, hooks: readonly HookRecord[]): void {
    const time = new Date().toISOString();
    const records: AuditRecord[] = [];
    for (const h of hooks) {
      if (h.outcome === 'not-run') continue;
      const r: AuditRecord = {
        time,
        event,
        hookId: h.id,
        scope: h.scope,
        type: h.type,
        outcome: h.outcome,
        latencyMs: round(h.latencyMs),
        queuedMs: round(h.queuedMs),
      };
      if (tenant !== undefined) r.tenant = tenant;
      if (h.error !== undefined) r.errorCode = h.error.code;
      records.push(r);
    }
    if (records.length === 0) return;
    if (this.#file !== undefined)
      appendFileSync(this.#file, records.map((r) => `${JSON.stringify(r)}\n`).join(''), { mode: 0o600 });
    if (this.#callback !== undefined) for (const r of records) this.#callback(r);
  }
}
