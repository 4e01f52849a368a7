// A tenant's scheduling limits (`tenants.<id>.limits`) merged from the files that set them, by the
// rule of every limit (trust invariant 1): a policy file sets them, a user or project file may only
// tighten what a more trusted one set.
import type { Scope } from '../contract/types.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { TenantLimits } from './tenant-limits.js';

/**
 * A tenant's scheduling limits (`tenants.<id>.limits`) follow the same rule: a policy file sets
 * them, a project or user file may only tighten a value a higher scope set (an unset value is
 * unbounded, so any value tightens it). All apply to the tenant's whole lane share.
 */
export const TENANT_LIMIT_RULES = Object.freeze({
  maxConcurrent: 'cap',
  maxQueued: 'cap',
  weight: 'cap',
  cpuMsPerWindow: 'cap',
  windowMs: 'floor',
  maxAsyncQueued: 'cap',
  ratePerSec: 'cap',
  rateBurst: 'cap',
} as const satisfies Record<keyof TenantLimits, 'cap' | 'floor'>);

/** Merges one tenant's limits from its sources: policy ones in order, then lower ones tighten. */
export function mergeTenantLimits(
  parts: readonly { scope: Scope; limits: TenantLimits | undefined; sink: DiagnosticSink; path: string }[],
): TenantLimits {
  const out: Record<string, number> = {};
  const byRank = (scopes: readonly Scope[]) => parts.filter((p) => scopes.includes(p.scope));
  for (const p of byRank(['trusted', 'policy'])) Object.assign(out, definedOnly(p.limits));
  for (const p of [...byRank(['user']), ...byRank(['project'])]) {
    for (const [k, v] of Object.entries(definedOnly(p.limits))) {
      const current = out[k];
      const dir = TENANT_LIMIT_RULES[k as keyof TenantLimits];
      if (current === undefined || (dir === 'cap' ? v <= current : v >= current)) out[k] = v;
      else
        p.sink.warn(
          `${p.path}.${k}`,
          `ignored: ${v} would loosen the limit in force (${current}); a ${p.scope} file can only tighten a tenant's limits`,
        );
    }
  }
  return out as TenantLimits;
}

function definedOnly(limits: TenantLimits | undefined): Record<string, number> {
  return Object.fromEntries(Object.entries(limits ?? {}).filter(([, v]) => v !== undefined)) as Record<
    string,
    number
  >;
}
