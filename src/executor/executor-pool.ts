// The executor's hook pool, sized from the limits the configuration was loaded with: JS threads (0:
// one per core), command slots, kill grace, the JS heap ceiling and backstop, and the lanes' fair
// share; each tenant's own limits are read live through `tenantLimits`.
import { availableParallelism } from 'node:os';
import type { Limits } from '../config/defaults.js';
import type { TenantLimits } from '../config/tenant-limits.js';
import { HookPool } from '../pool/pool.js';

export function openPool(
  limits: Limits,
  scratchRoot: string | undefined,
  tenantLimits: (tenant: string) => TenantLimits,
): HookPool {
  return new HookPool({
    maxConcurrentCommands: limits.maxConcurrentCommands,
    killGraceMs: limits.killGraceMs,
    scratchBase: scratchRoot,
    jsThreads: limits.jsThreads === 0 ? availableParallelism() : limits.jsThreads,
    jsHeapCeilingBytes: limits.jsHeapCeilingBytes,
    jsBackstopGraceMs: limits.jsBackstopGraceMs,
    scheduling: {
      fairShareIdleMs: limits.fairShareIdleMs,
      tenantMaxQueued: limits.tenantMaxQueued,
    },
    tenantLimits,
  });
}
