// `Executor.setTenant(id, { config, limits })`: loads a tenant's hook set at run time.
import type { Diagnostic } from '../config/diagnostics.js';
import { formatDiagnostic } from '../config/diagnostics.js';
import { loadConfig } from '../config/load.js';
import type { ScopeLimits } from '../config/scope-limits.js';
import type { TenantLimits } from '../config/tenant-limits.js';
import { tenantLimitsSchema } from '../config/tenant-limits.js';
import { tenantIdProblem } from '../config/tenants.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { issueMessages } from '../contract/messages.js';
import type { RemotePacks } from '../packs/remote/remote-packs.js';
import { type ConfigSource, type ResolvedOptions, toSources } from './options.js';
import type { RuntimeTenant, TenantSpec } from './tenants.js';

/**
 * Loads a tenant's hooks at user scope, under `baseLimits`: the policy level of the executor's
 * configuration (its policy files and options), so the tenant can only tighten it.
 */
export async function loadRuntimeTenant(
  id: string,
  spec: TenantSpec,
  options: ResolvedOptions,
  warn: (d: Diagnostic) => void,
  baseLimits: ScopeLimits,
  remote?: RemotePacks,
): Promise<RuntimeTenant> {
  const problem = tenantIdProblem(id);
  if (problem !== undefined) throw new HookwardenError('invalid_options', `setTenant: id: ${problem}`);
  const limits = tenantLimitsSchema.safeParse(spec.limits ?? {});
  if (!limits.success) {
    const problems = issueMessages(limits.error.issues, spec.limits, 'limits').map(
      (m) => `setTenant: ${m.path}: ${m.message}`,
    );
    throw new HookwardenError('invalid_options', problems.join('; '), { problems });
  }
  const sources = toSources(spec.config, 'config', options.root).map((s) => ({
    ...s,
    scope: 'user' as const,
  }));
  const loaded = await loadConfig({ config: sources, policy: [], baseLimits, remote });
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
  return { hooks: loaded.hooks, limits: clean, spec };
}
