// The tenants of a load: each one's parts (one per source that declares it) merged under the
// policy's layers. A tenant whose own section has a problem is kept with what of it loaded, and
// fails closed alone: its `problems` deny its deny-capable events (docs/tenants-and-audit.md).
import type { Scope } from '../contract/types.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import type { IsolationLevel } from './defaults.js';
import { type Layer, mergeLayers } from './merge-layers.js';
import { mergeTenantLimits } from './merge-tenant-limits.js';
import type { TenantLimits } from './tenant-limits.js';
import type { TenantPart } from './tenants.js';

export interface LoadedTenant {
  /** Policy hooks first, then the tenant's, overrides applied. */
  readonly hooks: readonly HookDefinition[];
  /** The tenant's own layers (its hooks and packs), to merge again under another policy. */
  readonly ownLayers: readonly Layer[];
  readonly limits: TenantLimits;
  /** The operator's isolation floor for this tenant's own command hooks (a policy file's). */
  readonly isolation: IsolationLevel | undefined;
  /** A policy-scope pack of this tenant failed, or its section has a problem: its deny-capable events deny. */
  readonly policyFailures: readonly string[];
  /** Errors and skipped entries inside its sections (`file: path: message`); empty when it loaded whole. */
  readonly problems: readonly string[];
}

/** Each tenant: the policy layers plus its own; limits set by policy, tightened by lower files. */
export function mergeTenants(
  parts: Map<string, { scope: Scope; part: TenantPart }[]>,
  policyLayers: readonly Layer[],
): Map<string, LoadedTenant> {
  const out = new Map<string, LoadedTenant>();
  for (const [id, list] of parts) {
    const limits = mergeTenantLimits(
      list.map(({ scope, part }) => ({
        scope,
        limits: part.limits,
        sink: part.sink,
        path: `tenants.${id}.limits`,
      })),
    );
    const ownLayers = list.flatMap((p) => p.part.layers);
    const problems = list.flatMap((p) => p.part.problems.map((m) => `${p.part.sink.file}: ${m}`));
    if (problems.length > 0)
      list[0]!.part.sink.error(
        `tenants.${id}`,
        `tenant "${id}" fails closed: its deny-capable events deny until its configuration is fixed (other tenants and the policy's own hooks are not affected): ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`,
        false,
      );
    out.set(id, {
      hooks: mergeLayers([...policyLayers, ...ownLayers]),
      ownLayers,
      limits,
      // The last policy file that sets it.
      isolation: list.reduce<IsolationLevel | undefined>((v, p) => p.part.isolation ?? v, undefined),
      policyFailures: [
        ...list.flatMap((p) => p.part.policyFailures),
        ...(problems.length === 0 ? [] : [`tenant "${id}" is invalid: ${problems[0]}`]),
      ],
      problems,
    });
  }
  return out;
}
