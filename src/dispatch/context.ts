// What a dispatch runs with: the caller's options and the executor's parts.
import type { AuditLog } from '../audit/audit-log.js';
import type { HookEvents } from '../audit/hook-events.js';
import type { HookPool } from '../pool/pool.js';

export interface DispatchOptions {
  /** Tenant the dispatch runs for (recorded in audit records). */
  readonly tenant?: string | undefined;
  /** Aborting resolves the dispatch at once: deny (`interrupted`) on deny-capable events. */
  readonly signal?: AbortSignal | undefined;
}

export interface DispatchContext {
  readonly pool: HookPool;
  readonly root: string;
  readonly audit: AuditLog | undefined;
  readonly events: HookEvents | undefined;
}
