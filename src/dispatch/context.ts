// What a dispatch runs with: the caller's options and the executor's parts.
import type { AuditLog } from '../audit/audit-log.js';
import type { HookEvents } from '../audit/hook-events.js';
import type { HookPool } from '../pool/pool.js';
import type { HookTimingListener } from './hook-timing.js';

export interface DispatchOptions {
  /** Tenant the dispatch runs for (recorded in audit records). */
  readonly tenant?: string | undefined;
  /** Aborting resolves the dispatch at once: deny (`interrupted`) on deny-capable events. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Called after each hook task with where its time went (queue, transport, run); `hookwarden bench`
   * uses it for its stage split. Diagnostic: the shape may change between minor versions.
   */
  readonly onHookTiming?: HookTimingListener | undefined;
}

export interface DispatchContext {
  readonly pool: HookPool;
  readonly root: string;
  readonly audit: AuditLog | undefined;
  readonly events: HookEvents | undefined;
}
