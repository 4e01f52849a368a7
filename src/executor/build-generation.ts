// A generation built from its parts: the loaded configuration, the trusted hooks registered in code,
// the runtime tenants (setTenant) and the once-store, frozen. The executor builds a new one on every
// change and swaps one reference (executor.ts).

import type { LoadedConfig } from '../config/load.js';
import type { Generation } from '../dispatch/generation.js';
import { type OnceStore, Registry, type TrustedDefinition } from '../registry/registry.js';
import { buildTenantGenerations, type RuntimeTenant } from './tenants.js';

export function buildGeneration(
  loaded: LoadedConfig,
  tenants: ReadonlyMap<string, RuntimeTenant>,
  trusted: TrustedDefinition[],
  once: OnceStore,
): Generation {
  return Object.freeze({
    registry: new Registry(loaded.hooks, trusted, once),
    catalogue: loaded.catalogue,
    limits: loaded.limits,
    scopeLimits: loaded.scopeLimits,
    policyFailures: loaded.policyFailures,
    sessionEnv: loaded.sessionEnv,
    grants: loaded.grants,
    ...buildTenantGenerations(loaded, tenants, trusted, once),
  });
}
