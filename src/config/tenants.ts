// Per-tenant hook sets (docs/tenants-and-audit.md#tenants, `tenants: { <id>: { hooks, packs, limits } }`). A
// tenant's hooks run with the policy scope's and nobody else's, at user scope whichever file declares them;
// only a tenants section of a policy file may pin policy packs for the tenant. Its limits drive the fair
// scheduler. Tenant ids are
// validated before they are used anywhere (they name scratch directories and queues).
import { z } from 'zod';
import { quotedList } from '../contract/decisions.js';
import { isObject, issueMessages, joinPath, renderValue } from '../contract/messages.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import { ISOLATION_LEVELS, type IsolationLevel } from './defaults.js';
import type { DiagnosticSink } from './diagnostics.js';
import { type Grants, gatedHookTypes, tenantGate } from './grants.js';
import type { HookTypePolicy } from './hook-type-policy.js';
import type { Layer } from './merge-layers.js';
import { type EntriesContext, normalizeHooksMap } from './normalize-entries.js';
import type { PinLoader, RemotePinTarget } from './pin-loader.js';
import type { LimitsByScope } from './scope-limits.js';
import { didYouMean } from './suggest.js';
import { tenantIdProblem } from './tenant-id.js';
import type { TenantLimits } from './tenant-limits.js';
import { tenantLimitsSchema } from './tenant-limits.js';

const tenantSchema = z
  .object({
    hooks: z.unknown().optional(),
    packs: z.unknown().optional(),
    limits: tenantLimitsSchema.optional(),
    isolation: z
      .enum(ISOLATION_LEVELS, { error: `expected ${quotedList(ISOLATION_LEVELS)}` })
      .optional()
      .meta({
        description:
          "Least isolation of the tenant's command hooks (policy files only): replaces the executor's tenantIsolation default for this tenant (serve: namespace).",
      }),
  })
  .meta({ description: 'A tenant: its hooks (config shape), pinned packs and scheduling limits.' });

/** One tenant as read from one source. */
export interface TenantPart {
  readonly layers: Layer[];
  /** Where the part's diagnostics go (its source file). */
  readonly sink: DiagnosticSink;
  readonly limits: TenantLimits | undefined;
  /** The operator's isolation floor for the tenant's hooks (read from policy files only). */
  readonly isolation: IsolationLevel | undefined;
  readonly policyFailures: string[];
  /** The tenant's url pins to poll. */
  readonly remotePins: readonly RemotePinTarget[];
  /** Errors and skipped entries inside this tenant's section (`path: message`): it fails closed. */
  readonly problems: readonly string[];
}

const TENANT_KEYS = new Set(Object.keys(tenantSchema.shape));

type TenantsContext = EntriesContext & {
  readonly sink: DiagnosticSink;
  readonly scopeLimits: LimitsByScope;
  readonly pins: PinLoader;
  readonly grants: Grants;
  /** The executor's http policy before any gate narrowed it (a tenant's comes from its grant). */
  readonly baseHookTypes: HookTypePolicy;
};

/** One tenant of a source (its diagnostics go to ctx.sink, the tenant's own); broken parts are left out. */
async function readTenant(
  id: string,
  raw: unknown,
  path: string,
  ctx: TenantsContext,
): Promise<Omit<TenantPart, 'problems'>> {
  const empty = {
    layers: [],
    sink: ctx.sink,
    limits: undefined,
    isolation: undefined,
    policyFailures: [],
    remotePins: [],
  };
  if (isObject(raw)) {
    for (const k of Object.keys(raw)) {
      if (!TENANT_KEYS.has(k))
        ctx.sink.warn(
          joinPath(path, k),
          `unknown field "${k}" of a tenant ignored${didYouMean(k, TENANT_KEYS)}`,
          true,
        );
    }
  }
  const parsed = tenantSchema.safeParse(raw);
  if (!parsed.success) {
    for (const m of issueMessages(parsed.error.issues, raw, path)) ctx.sink.error(m.path, m.message);
    return empty;
  }
  const t = parsed.data;
  // A tenant's hooks are the tenant's (third-party) code: user scope, whichever file declares them,
  // and held to the tenant's grant (a user's own file is not a tenant's).
  const gate = tenantGate(ctx.grants, id);
  const userCtx = {
    ...ctx,
    scope: 'user' as const,
    limits: ctx.scopeLimits.user,
    gate,
    hookTypes: gatedHookTypes(ctx.baseHookTypes, gate),
  };
  const hooks: HookDefinition[] = [];
  if (t.hooks !== undefined)
    hooks.push(...(await normalizeHooksMap(t.hooks, joinPath(path, 'hooks'), userCtx)));
  const layers: Layer[] = [{ scope: 'user', sink: ctx.sink, hooks }];
  const policyFailures: string[] = [];
  const remotePins: RemotePinTarget[] = [];
  if (t.packs !== undefined) {
    // A tenant section in a policy file is the operator's: it may pin policy packs for the tenant.
    const pinned = await ctx.pins(t.packs, { ...userCtx, policySource: ctx.scope === 'policy' });
    layers.push(...pinned.layers);
    policyFailures.push(...pinned.policyFailures.map((f) => `tenant "${id}": ${f}`));
    remotePins.push(...pinned.remote);
  }
  let isolation: IsolationLevel | undefined;
  if (t.isolation !== undefined && ctx.scope !== 'policy')
    ctx.sink.warn(
      joinPath(path, 'isolation'),
      "ignored: only a policy file (the operator's) sets a tenant's isolation",
    );
  else isolation = t.isolation;
  return { layers, sink: ctx.sink, limits: t.limits, isolation, policyFailures, remotePins };
}

/**
 * Reads a source's `tenants` map. A problem inside `tenants.<id>` is that tenant's (its diagnostics
 * say so): the tenant is kept, with what of it loaded, and its `problems` fail it closed.
 */
export async function readTenants(value: unknown, ctx: TenantsContext): Promise<Map<string, TenantPart>> {
  const out = new Map<string, TenantPart>();
  if (!isObject(value)) {
    ctx.sink.error(
      'tenants',
      `expected an object mapping tenant ids to {hooks, packs, limits}, got ${renderValue(value)}`,
    );
    return out;
  }
  for (const id of Object.keys(value)) {
    const path = joinPath('tenants', id);
    const problem = tenantIdProblem(id);
    if (problem !== undefined) {
      // No dispatch can name such a tenant: an error for validate and serve --check, nobody denied.
      ctx.sink.forTenant(id).error(path, problem);
      continue;
    }
    const sink = ctx.sink.forTenant(id);
    const part = await readTenant(id, value[id], path, { ...ctx, sink });
    // A tenant's own mistake fails it closed, and nobody else: its deny-capable events deny.
    const problems = sink.items.filter((d) => d.tenant === id && (d.severity === 'error' || d.skipped));
    out.set(id, {
      ...part,
      problems: problems.map((d) => `${d.path}: ${d.message}`),
    });
  }
  return out;
}
