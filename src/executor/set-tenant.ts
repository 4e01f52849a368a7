// `Executor.setTenant(id, { config, limits })`: loads a tenant's hook set at run time.
import { ISOLATION_LEVELS } from '../config/defaults.js';
import type { Diagnostic } from '../config/diagnostics.js';
import { formatDiagnostic } from '../config/diagnostics.js';
import type { Grants } from '../config/grants.js';
import { type LoadedConfig, loadConfig } from '../config/load.js';
import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';
import { tenantIdProblem } from '../config/tenant-id.js';
import type { TenantLimits } from '../config/tenant-limits.js';
import { tenantLimitsSchema } from '../config/tenant-limits.js';
import { quotedList } from '../contract/decisions.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { jsonEqual } from '../contract/json-equal.js';
import { issueMessages, renderValue } from '../contract/messages.js';
import { packPinLoader } from '../packs/pins.js';
import type { RemotePacks } from '../packs/remote/remote-packs.js';
import { toSources } from './config-sources.js';
import type { ResolvedOptions } from './options.js';
import type { RuntimeTenant, TenantSpec } from './tenants.js';

const TENANT_SPEC_KEYS = optionKeys<TenantSpec>()(['config', 'limits', 'isolation']);
const TENANT_LIMIT_KEYS: ReadonlySet<string> = new Set(Object.keys(tenantLimitsSchema.shape));

/**
 * Loads a tenant's hooks at user scope, under the policy level of the executor's configuration
 * (`base`: its policy files and options): its limits, which the tenant can only tighten, and what
 * http, prompt and agent hooks may do.
 */
export async function loadRuntimeTenant(
  id: string,
  spec: TenantSpec,
  options: ResolvedOptions,
  warn: (d: Diagnostic) => void,
  base: Pick<LoadedConfig, 'scopeLimits' | 'hookTypes' | 'grants'>,
  remote?: RemotePacks,
): Promise<RuntimeTenant> {
  const problem = tenantIdProblem(id);
  if (problem !== undefined) throw new HookwardenError('invalid_options', `setTenant: id: ${problem}`);
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec))
    throw new HookwardenError('invalid_options', 'setTenant: expected a spec like { config, limits }');
  refuseUnknownOptions(spec, TENANT_SPEC_KEYS, 'setTenant');
  refuseUnknownOptions(spec.limits, TENANT_LIMIT_KEYS, 'setTenant: limits');
  const limits = tenantLimitsSchema.safeParse(spec.limits ?? {});
  if (!limits.success) {
    const problems = issueMessages(limits.error.issues, spec.limits, 'limits').map(
      (m) => `setTenant: ${m.path}: ${m.message}`,
    );
    throw new HookwardenError('invalid_options', problems.join('; '), { problems });
  }
  if (spec.isolation !== undefined && !(ISOLATION_LEVELS as readonly unknown[]).includes(spec.isolation))
    throw new HookwardenError(
      'invalid_options',
      `setTenant: isolation: expected ${quotedList(ISOLATION_LEVELS)}, got ${renderValue(spec.isolation)}`,
    );
  const sources = toSources(spec.config, 'config', options.root).map((s) => ({
    ...s,
    scope: 'user' as const,
  }));
  const loaded = await loadConfig({
    config: sources,
    policy: [],
    baseLimits: base.scopeLimits.policy,
    baseHookTypes: base.hookTypes,
    baseGrants: base.grants,
    // Every hook of a tenant's files is the tenant's: held to its grant.
    tenant: id,
    pins: packPinLoader(remote),
  });
  if (loaded.fatal.length > 0) {
    const problems = loaded.fatal.map(formatDiagnostic);
    throw new HookwardenError('config_error', `setTenant "${id}": ${problems.join('; ')}`, { problems });
  }
  for (const d of loaded.diagnostics) warn({ ...d, message: `tenant "${id}": ${d.message}` });
  if (loaded.hooks.some((h) => h.scope === 'policy') || loaded.policyFailures.length > 0) {
    throw new HookwardenError(
      'config_error',
      `setTenant "${id}": a tenant's packs are user scope; policy packs belong to the policy files`,
    );
  }
  if (loaded.tenants.size > 0) {
    warn({
      severity: 'warning',
      file: `<tenant ${id}>`,
      path: 'tenants',
      message: 'tenants inside a tenant config are ignored',
      skipped: true,
    });
  }
  const clean = Object.fromEntries(
    Object.entries(limits.data).filter(([, v]) => v !== undefined),
  ) as TenantLimits;
  return { hooks: loaded.hooks, limits: clean, isolation: spec.isolation, spec };
}

/** Grants as plain data (their tenants are a Map), to compare two loads'. */
const grantsData = (g: Grants) => ({ project: g.project, tenants: Object.fromEntries(g.tenants) });

/**
 * Runtime tenants were loaded under the policy level's limits and hook-type policy: when a reload
 * changes those, each is
 * loaded again under the new ones; a tenant that cannot be is removed (with an error) until
 * setTenant() succeeds.
 */
export async function reloadTenants(
  tenants: Map<string, RuntimeTenant>,
  previous: LoadedConfig,
  next: LoadedConfig,
  options: ResolvedOptions,
  warn: (d: Diagnostic) => void,
  remote: RemotePacks,
): Promise<void> {
  if (
    jsonEqual(previous.scopeLimits.policy, next.scopeLimits.policy) &&
    jsonEqual(previous.hookTypes, next.hookTypes) &&
    jsonEqual(grantsData(previous.grants), grantsData(next.grants))
  )
    return;
  for (const [id, t] of [...tenants]) {
    try {
      tenants.set(id, await loadRuntimeTenant(id, t.spec, options, warn, next, remote));
    } catch (err) {
      warn({
        severity: 'error',
        file: `<tenant ${id}>`,
        path: '',
        message: `the new policy limits could not be applied to tenant "${id}", so its hooks are removed until setTenant() succeeds: ${(err as Error).message}`,
        skipped: true,
      });
      tenants.delete(id);
    }
  }
}
