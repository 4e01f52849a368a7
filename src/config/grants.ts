// `grants` in a policy file: what the operator lets a project's hooks, and each tenant's, do beyond
// the strict defaults (docs/security.md, "What a hook file may ask for"). Capabilities are granted,
// never taken: a hook of a project file (a repository's) or of a tenant that asks for more than its
// grant runs at the stricter value, and the load names what was refused (grant-gate.ts). A user's own
// file and the policy's hooks are not gated. Only a policy file grants (trust invariant 1): a
// project or user file's `grants` is ignored with a warning; a mistake in a policy file's is a policy
// failure, like every other policy key.
//
//   "grants": {
//     "project": { "inheritEnv": ["NODE_ENV"], "timeoutMs": 120000 },
//     "tenants": {
//       "*":    { "allowedHttpHookUrls": ["https://hooks.example.com/*"] },   // every other tenant
//       "acme": { "writable": true, "sessionEnv": ["ACME_REGION"], "maxOutputBytes": 4194304 }
//     }
//   }
import { z } from 'zod';
import { issueMessages, joinPath, renderValue } from '../contract/messages.js';
import { ENV_NAME } from '../contract/refused-env.js';
import type { Scope } from '../contract/types.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { HookTypePolicy } from './hook-type-policy.js';
import { TENANT_ID } from './tenant-id.js';
import { parseUrlPattern, type UrlPattern } from './url-allow-list.js';
import { posInt } from './zod-fields.js';

const names = (what: string) =>
  z
    .array(
      z.string({ error: 'expected a variable name' }).regex(ENV_NAME, {
        error: 'expected a variable name (letters, digits, _), without "$"',
      }),
      { error: `expected an array of ${what}` },
    )
    .optional();

/** What one grant may loosen, each field its own capability (absent: not granted). */
const grantSetSchema = z.strictObject({
  writable: z.boolean({ error: 'expected true or false' }).optional().meta({
    description:
      "Command hooks' `writable`: for a project, the sandbox root read-write (namespace mode); for a tenant, a folder of its own (HOOK_WRITABLE_DIR), never the root.",
  }),
  inheritEnv: names('variable names').meta({
    description:
      "Host variables the hooks may read: command hooks' inheritEnv, http hooks' allowedEnvVars (the secret filter still applies).",
  }),
  runAs: z
    .boolean({ error: 'expected true or false' })
    .optional()
    .meta({ description: 'Command hooks may run as the host\'s "nobody" (runAs), one uid shared by all.' }),
  timeoutMs: posInt().optional().meta({
    description: "Longest deadline (timeout, widened by a declared budget). Default: the kind's default.",
  }),
  maxOutputBytes: posInt()
    .optional()
    .meta({ description: "Largest output cap a hook may ask for. Default: the kind's default." }),
  memoryBytes: posInt().optional().meta({
    description:
      "Largest memory a hook may ask for: a JS hook's heap, a wasm hook's memory cap. Default 32 MiB for either.",
  }),
  rlimits: z
    .strictObject({
      cpuSeconds: posInt().optional(),
      openFiles: posInt().optional(),
      fileSizeBytes: posInt().optional(),
    })
    .optional()
    .meta({
      description: 'Largest rlimits a command hook may ask for. Default: the defaults (1024 files, 64 MiB).',
    }),
  sessionEnv: names('variable names').meta({
    description: 'Variables the hooks may set for the session beyond the built-in inert list.',
  }),
  allowedHttpHookUrls: z
    .array(z.string({ error: 'expected a URL pattern' }), { error: 'expected an array of URL patterns' })
    .optional()
    .meta({
      description:
        'Tenants: the URLs their http hooks may be sent to (the top-level allowedHttpHookUrls is not theirs). Project: added to the top-level list.',
    }),
});

export type GrantSet = Readonly<z.output<typeof grantSetSchema>>;

export const grantsSchema = z
  .strictObject({
    project: grantSetSchema.optional().meta({ description: "What a project file's hooks may loosen." }),
    tenants: z
      .record(
        z.string().refine((id) => id === '*' || TENANT_ID.test(id), {
          error: 'expected a tenant id or "*" (every tenant without an entry of its own)',
        }),
        grantSetSchema,
        { error: 'expected an object mapping tenant ids (or "*") to grants' },
      )
      .optional()
      .meta({
        description: 'What each tenant\'s hooks may loosen; "*": every tenant without its own entry.',
      }),
  })
  .meta({
    description:
      "Policy files only: what project and tenants' hooks may loosen (docs/security.md). Not granted: the hook runs at the strict value and the load says so.",
  });

/** The policy's grants, merged over every policy file (later files add to and widen earlier ones). */
export interface Grants {
  readonly project: GrantSet;
  readonly tenants: ReadonlyMap<string, GrantSet>;
}

const NONE: GrantSet = Object.freeze({});
const NO_GRANTS: Grants = Object.freeze({ project: NONE, tenants: new Map() });

/** What applies to a tenant's hooks: its own entry, else `*`'s, else nothing. */
export const tenantGrant = (grants: Grants, tenant: string): GrantSet =>
  grants.tenants.get(tenant) ?? grants.tenants.get('*') ?? NONE;

/**
 * Who a hook's file makes it answer to: undefined (the policy's, a trusted one's, a user's own file:
 * not gated), or the grant in force and how messages name the hooks.
 */
export interface HookGate {
  readonly grant: GrantSet;
  /** "a project file's hooks", 'tenant "acme"\'s hooks'. */
  readonly who: string;
  /** Where the operator grants it, for messages: `grants.project`, `grants.tenants.acme`. */
  readonly where: string;
  /** The tenant, for a tenant's hooks. */
  readonly tenant?: string | undefined;
}

const projectGate = (grants: Grants): HookGate => ({
  grant: grants.project,
  who: "a project file's hooks",
  where: 'grants.project',
});

export const tenantGate = (grants: Grants, tenant: string): HookGate => ({
  grant: tenantGrant(grants, tenant),
  who: `tenant "${tenant}"'s hooks`,
  // Its own entry, even where "*" is in force: a grant for one tenant should not be made for all.
  where: joinPath('grants.tenants', tenant),
  tenant,
});

/** The gate of a source's own (non-tenant) hooks: project scope is gated, the rest are not. */
export const scopeGate = (grants: Grants, scope: Scope): HookGate | undefined =>
  scope === 'project' ? projectGate(grants) : undefined;

interface Source {
  readonly scope: Scope;
  readonly sink: DiagnosticSink;
  readonly value: Record<string, unknown> | undefined;
}

const max = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);
const union = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  a === undefined && b === undefined ? undefined : [...new Set([...(a ?? []), ...(b ?? [])])];

/** Two policy files' grants for the same holder: the wider of each field. */
function widen(a: GrantSet, b: GrantSet): GrantSet {
  const rl =
    a.rlimits === undefined && b.rlimits === undefined
      ? undefined
      : {
          cpuSeconds: max(a.rlimits?.cpuSeconds, b.rlimits?.cpuSeconds),
          openFiles: max(a.rlimits?.openFiles, b.rlimits?.openFiles),
          fileSizeBytes: max(a.rlimits?.fileSizeBytes, b.rlimits?.fileSizeBytes),
        };
  const out = {
    writable: a.writable === true || b.writable === true ? true : undefined,
    inheritEnv: union(a.inheritEnv, b.inheritEnv),
    runAs: a.runAs === true || b.runAs === true ? true : undefined,
    timeoutMs: max(a.timeoutMs, b.timeoutMs),
    maxOutputBytes: max(a.maxOutputBytes, b.maxOutputBytes),
    memoryBytes: max(a.memoryBytes, b.memoryBytes),
    rlimits: rl,
    sessionEnv: union(a.sessionEnv, b.sessionEnv),
    allowedHttpHookUrls: union(a.allowedHttpHookUrls, b.allowedHttpHookUrls),
  };
  return Object.freeze(Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)));
}

/** Each URL pattern of a grant parses as `allowedHttpHookUrls` does; problems are errors. */
function checkUrls(g: GrantSet, path: string, sink: DiagnosticSink): GrantSet {
  if (g.allowedHttpHookUrls === undefined) return g;
  const ok: string[] = [];
  for (const [i, v] of g.allowedHttpHookUrls.entries()) {
    const parsed = parseUrlPattern(v);
    if (parsed.ok) ok.push(v);
    else
      sink.error(
        joinPath(joinPath(path, 'allowedHttpHookUrls'), i),
        `${parsed.message}, got ${renderValue(v)}`,
      );
  }
  return { ...g, allowedHttpHookUrls: ok };
}

/** Reads `grants` from the policy sources; a lower scope's is ignored with a warning. */
export function collectGrants(sources: readonly Source[]): Grants {
  let project: GrantSet = NONE;
  const tenants = new Map<string, GrantSet>();
  for (const src of sources) {
    const value = src.value?.grants;
    if (value === undefined) continue;
    if (src.scope !== 'policy') {
      src.sink.warn(
        'grants',
        `ignored: only a policy file grants capabilities, so a ${src.scope} file's "grants" has no effect (its hooks run at the strict values)`,
      );
      continue;
    }
    const parsed = grantsSchema.safeParse(value);
    if (!parsed.success) {
      for (const m of issueMessages(parsed.error.issues, value, 'grants')) src.sink.error(m.path, m.message);
      continue;
    }
    if (parsed.data.project !== undefined)
      project = widen(project, checkUrls(parsed.data.project, 'grants.project', src.sink));
    for (const [id, g] of Object.entries(parsed.data.tenants ?? {}))
      tenants.set(id, widen(tenants.get(id) ?? NONE, checkUrls(g, joinPath('grants.tenants', id), src.sink)));
  }
  if (project === NONE && tenants.size === 0) return NO_GRANTS;
  return Object.freeze({ project, tenants });
}

const patterns = (list: readonly string[] | undefined): UrlPattern[] | undefined =>
  list?.flatMap((v) => {
    const p = parseUrlPattern(v);
    return p.ok ? [p.value] : [];
  });

/**
 * What http hooks behind `gate` may reach: a tenant's, only the URLs its grant names (the top-level
 * list is the operator's own hooks'); a project file's, the top-level list plus its grant's.
 */
export function gatedHookTypes(base: HookTypePolicy, gate: HookGate | undefined): HookTypePolicy {
  if (gate === undefined) return base;
  const granted = patterns(gate.grant.allowedHttpHookUrls);
  if (gate.tenant !== undefined)
    return Object.freeze({
      ...base,
      urls: granted === undefined ? undefined : Object.freeze(granted),
      urlsFix: `a tenant's http hooks go only where its grant says: "grants": {"tenants": {"${gate.tenant}": {"allowedHttpHookUrls": [...]}}} in a policy file`,
    });
  if (granted === undefined) return base;
  return Object.freeze({ ...base, urls: Object.freeze([...(base.urls ?? []), ...granted]) });
}
