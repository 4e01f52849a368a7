// The executor's events: `hook.started` / `hook.completed` for every hook run, and for async hooks
// `async.completed` and `rewake` (docs/scaling.md). Listeners run synchronously; an exception in one
// is reported on stderr and never affects a dispatch.
import type { AsyncCompletedEvent, RewakeEvent } from '../contract/async-events.js';
import type { AuditFailure, AuditRecord } from './audit-log.js';
import type { DecisionLogProblem } from './decision-log.js';

/** A hook was handed to its lane: the identifying part of its audit record. */
export type HookStartedEvent = Pick<AuditRecord, 'time' | 'tenant' | 'event' | 'hookId' | 'scope' | 'type'>;

/** The audit records of a dispatch (or async run) could not be written, after the retries. */
export interface AuditFailedEvent extends AuditFailure {
  /** ISO time of the failure. */
  readonly time: string;
  /** The dispatch's event and tenant (undefined for an async run's completion). */
  readonly event?: string | undefined;
  readonly tenant?: string | undefined;
  /** `audit.required` made the dispatch deny. */
  readonly denied: boolean;
}

export interface HookEventMap {
  'hook.started': HookStartedEvent;
  'hook.completed': AuditRecord;
  'async.completed': AsyncCompletedEvent;
  rewake: RewakeEvent;
  'audit.failed': AuditFailedEvent;
  /** The decision-log sink failed, dropped events, or answers again (decision-log.ts). */
  'decision-log': DecisionLogProblem;
}

export type HookEventName = keyof HookEventMap;

export class HookEvents {
  readonly #listeners: { [K in HookEventName]: Set<(e: HookEventMap[K]) => void> } = {
    'hook.started': new Set(),
    'hook.completed': new Set(),
    'async.completed': new Set(),
    rewake: new Set(),
    'audit.failed': new Set(),
    'decision-log': new Set(),
  };

  on<K extends HookEventName>(name: K, listener: (e: HookEventMap[K]) => void): () => void {
    const set = this.#listeners[name] as Set<(e: HookEventMap[K]) => void> | undefined;
    if (set === undefined)
      throw new TypeError(
        `unknown event "${String(name)}"; expected "hook.started", "hook.completed", "async.completed", "rewake", "audit.failed" or "decision-log"`,
      );
    set.add(listener);
    return () => set.delete(listener);
  }

  has(name: HookEventName): boolean {
    return this.#listeners[name].size > 0;
  }

  emit<K extends HookEventName>(name: K, e: HookEventMap[K]): void {
    for (const fn of this.#listeners[name] as Set<(e: HookEventMap[K]) => void>) {
      try {
        fn(e);
      } catch (err) {
        process.stderr.write(`hookwarden: a ${name} listener threw: ${(err as Error).message}\n`);
      }
    }
  }
}
