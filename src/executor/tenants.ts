// Tenants added or replaced at run time (`Executor.setTenant`), and the per-tenant registries of a
// generation. A tenant's hooks run with the trusted and policy hooks and nobody else's.

import type { IsolationLevel } from '../config/defaults.js';
import type { LoadedConfig } from '../config/load.js';
import type { TenantLimits } from '../config/tenant-limits.js';
import type { TenantGeneration } from '../dispatch/generation.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import { type OnceStore, Registry, type TrustedDefinition } from '../registry/registry.js';
import type { ConfigSource } from './options.js';

/** What setTenant() takes. */
export interface TenantSpec {
  /** The tenant's hooks: config file path(s) or object(s), in the hooks.json shape (user scope). */
  config?: ConfigSource | readonly ConfigSource[];
  /** Scheduling limits: maxConcurrent, maxQueued, weight, cpuMsPerWindow, windowMs. */
  limits?: TenantLimits;
  /**
   * Least isolation of the tenant's command hooks: replaces the executor's `tenantIsolation` default
   * for this tenant (the platform is the operator here). Default: that default.
   */
  isolation?: IsolationLevel;
}

/** A tenant set through the library: its own hooks; the policy hooks are added per generation. */
export interface RuntimeTenant {
  readonly hooks: readonly HookDefinition[];
  readonly limits: TenantLimits;
  readonly isolation?: IsolationLevel | undefined;
  /** As given to setTenant(): loaded again when a reload changes the policy level's limits. */
  readonly spec: TenantSpec;
}

const key = (h: HookDefinition) => `${h.event}\u0000${h.id}`;

/** Policy hooks first; a tenant hook named like a policy hook is dropped (nothing replaces policy). */
function withPolicy(policy: readonly HookDefinition[], own: readonly HookDefinition[]): HookDefinition[] {
  const taken = new Set(policy.filter((h) => h.named).map(key));
  return [...policy, ...own.filter((h) => !(h.named && taken.has(key(h))))];
}

export function buildTenantGenerations(
  loaded: LoadedConfig,
  runtime: ReadonlyMap<string, RuntimeTenant>,
  trusted: readonly TrustedDefinition[],
  once: OnceStore,
): { tenants: Map<string, TenantGeneration>; policyOnly: TenantGeneration } {
  const policy = loaded.hooks.filter((h) => h.scope === 'policy');
  const tenants = new Map<string, TenantGeneration>();
  for (const [id, t] of loaded.tenants) {
    tenants.set(id, {
      registry: new Registry(t.hooks, trusted, once),
      limits: t.limits,
      isolation: t.isolation,
      policyFailures: t.policyFailures,
    });
  }
  // Tenants set at run time replace a config file's tenant of the same id.
  for (const [id, t] of runtime) {
    tenants.set(id, {
      registry: new Registry(withPolicy(policy, t.hooks), trusted, once),
      limits: t.limits,
      isolation: t.isolation,
      policyFailures: [],
    });
  }
  return {
    tenants,
    policyOnly: { registry: new Registry(policy, trusted, once), limits: {}, policyFailures: [] },
  };
}
