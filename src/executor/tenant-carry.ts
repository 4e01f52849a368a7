// A reload never breaks a tenant that worked: a tenant whose new section has a problem keeps its
// last good configuration (its own hooks, packs and limits, merged under the new policy), with an
// error naming the tenant and the problem, while every other tenant and the policy's hooks take the
// new configuration. A tenant that was never good fails closed (merge-tenants.ts).
import type { Diagnostic } from '../config/diagnostics.js';
import type { LoadedConfig } from '../config/load.js';
import { mergeLayers } from '../config/merge-layers.js';
import type { LoadedTenant } from '../config/merge-tenants.js';

/** `next` with each newly broken tenant's last good state from `previous` kept in force. */
export function keepGoodTenants(
  previous: LoadedConfig,
  next: LoadedConfig,
  warn: (d: Diagnostic) => void,
): LoadedConfig {
  let kept: Map<string, LoadedTenant> | undefined;
  for (const [id, t] of next.tenants) {
    if (t.problems.length === 0) continue;
    const good = previous.tenants.get(id);
    if (good === undefined || good.problems.length > 0) continue;
    kept ??= new Map(next.tenants);
    kept.set(id, { ...good, hooks: mergeLayers([...next.policyLayers, ...good.ownLayers]) });
    warn({
      severity: 'error',
      file: '<reload>',
      path: `tenants.${id}`,
      tenant: id,
      message: `tenant "${id}": its new configuration is invalid (${t.problems[0]}${t.problems.length > 1 ? `, and ${t.problems.length - 1} more` : ''}); its last good configuration stays in force until it is fixed. Other tenants and the policy took the new one`,
      skipped: false,
    });
  }
  return kept === undefined ? next : { ...next, tenants: kept };
}
