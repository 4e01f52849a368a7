// What each config source adds to a load (load.ts), in source order: its file to watch, then (when it
// parsed) its hooks and policyHooks as one layer, its tenants' parts, and the packs it pins.
import { basename, dirname, resolve } from 'node:path';
import type { EventCatalogue } from '../contract/events.js';
import type { Scope } from '../contract/types.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import type { DiagnosticSink } from './diagnostics.js';
import { dialectOfFile } from './dialect.js';
import { type Grants, gatedHookTypes, scopeGate, tenantGate } from './grants.js';
import type { HookTypePolicy } from './hook-type-policy.js';
import type { Layer } from './merge-layers.js';
import { normalizeHooksMap } from './normalize-entries.js';
import type { PackStatus, PinLoader, RemotePinTarget } from './pin-loader.js';
import { findPlugin } from './plugin-root.js';
import type { ReadSource } from './read-source.js';
import type { LimitsByScope } from './scope-limits.js';
import { readTenants, type TenantPart } from './tenants.js';
import { warnIgnoredKeys } from './top-level-keys.js';
import type { WatchTarget } from './watch-target.js';

/** What every source is read under: the load's events, limits, hook-type policy, grants and pins. */
export interface SourceTerms {
  readonly catalogue: EventCatalogue;
  readonly scopeLimits: LimitsByScope;
  readonly hookTypes: HookTypePolicy;
  readonly grants: Grants;
  readonly pins: PinLoader;
  /** Runtime tenants: every source is this tenant's. */
  readonly tenant: string | undefined;
}

/** What the sources added, in source order. */
export interface Gathered {
  readonly layers: Layer[];
  /** The sinks of the packs' layers (their diagnostics join the load's). */
  readonly packSinks: DiagnosticSink[];
  readonly packs: PackStatus[];
  readonly policyFailures: string[];
  readonly watchTargets: WatchTarget[];
  readonly remotePins: RemotePinTarget[];
  readonly tenantParts: Map<string, { scope: Scope; part: TenantPart }[]>;
}

type Value = Record<string, unknown>;

export async function gatherSources(sources: readonly ReadSource[], terms: SourceTerms): Promise<Gathered> {
  const out: Gathered = {
    layers: [],
    packSinks: [],
    packs: [],
    policyFailures: [],
    watchTargets: [],
    remotePins: [],
    tenantParts: new Map(),
  };
  for (const src of sources) await gatherSource(src, terms, out);
  return out;
}

async function gatherSource(src: ReadSource, terms: SourceTerms, out: Gathered): Promise<void> {
  if (src.spec.kind === 'file') {
    const file = resolve(src.spec.path);
    out.watchTargets.push({ dir: dirname(file), name: basename(file) });
  }
  if (src.value === undefined) return;
  const ctx = sourceContext(src, src.value, terms);
  const hooks = await sourceHooks(src, src.value, ctx);
  out.layers.push({ scope: src.spec.scope, sink: src.sink, hooks });
  if (src.value.tenants !== undefined) {
    for (const [id, part] of await readTenants(src.value.tenants, ctx)) {
      const list = out.tenantParts.get(id) ?? [];
      list.push({ scope: src.spec.scope, part });
      out.tenantParts.set(id, list);
      out.remotePins.push(...part.remotePins);
    }
  }
  if (src.value.packs !== undefined) await gatherPins(src, src.value.packs, ctx, terms, out);
}

type SourceContext = ReturnType<typeof sourceContext>;

/** The context a source's hooks, tenants and pins are read in: its dialect, limits and grant. */
function sourceContext(src: ReadSource, value: Value, terms: SourceTerms) {
  const { catalogue, scopeLimits, hookTypes, grants } = terms;
  const { dialect, also } = dialectOfFile(
    value,
    src.sink,
    new Set(catalogue.names()),
    src.spec.kind === 'file' ? resolve(src.spec.path) : undefined,
  );
  warnIgnoredKeys(dialect, value, src.sink, src.spec.scope === 'policy');
  // A project file's hooks, and every hook of a runtime tenant's files, answer to their grant.
  const gate =
    terms.tenant !== undefined ? tenantGate(grants, terms.tenant) : scopeGate(grants, src.spec.scope);
  return {
    scope: src.spec.scope,
    sink: src.sink,
    configDir: src.dir,
    plugin: src.spec.kind === 'file' ? findPlugin(src.dir) : undefined,
    dialect,
    alsoDialects: also,
    limits: scopeLimits[src.spec.scope],
    scopeLimits,
    catalogue,
    pins: terms.pins,
    hookTypes: gatedHookTypes(hookTypes, gate),
    gate,
    grants,
    baseHookTypes: hookTypes,
  };
}

/** The source's `hooks`, then its `policyHooks` (honoured in policy files only). */
async function sourceHooks(src: ReadSource, value: Value, ctx: SourceContext): Promise<HookDefinition[]> {
  const hooks: HookDefinition[] = [];
  if (value.hooks !== undefined) hooks.push(...(await normalizeHooksMap(value.hooks, 'hooks', ctx)));
  if (value.policyHooks !== undefined) {
    if (src.spec.scope === 'policy')
      hooks.push(...(await normalizeHooksMap(value.policyHooks, 'policyHooks', ctx)));
    else {
      src.sink.warn(
        'policyHooks',
        'policyHooks are only honoured in policy files (--policy / the `policy` option); these hooks do not run',
        true,
      );
    }
  }
  return hooks;
}

/** The packs a source pins: their layers, failures, statuses and what to watch and poll. */
async function gatherPins(
  src: ReadSource,
  packs: unknown,
  ctx: SourceContext,
  terms: SourceTerms,
  out: Gathered,
): Promise<void> {
  const pinned = await terms.pins(packs, { ...ctx, policySource: src.spec.scope === 'policy' });
  for (const l of pinned.layers) {
    out.layers.push(l);
    out.packSinks.push(l.sink);
  }
  out.policyFailures.push(...pinned.policyFailures);
  out.packs.push(...pinned.statuses);
  out.watchTargets.push(...pinned.watch);
  out.remotePins.push(...pinned.remote);
}
