// Loads config sources into one merged, ordered list of hooks (docs/configuration.md):
// - `policy` sources are policy scope in full (their `hooks` and `policyHooks`); if one cannot be
//   read, parsed or validated, the result carries a policy failure and deny-capable events deny;
// - `config` sources are project (default) or user scope and merge in order: a later layer replaces
//   an earlier one's hook with the same event+name, project replaces user; a `policyHooks` key there is
//   ignored with a warning; invalid entries are skipped with a warning while the rest loads;
// - nothing replaces a policy hook: a clash drops the other hook with a warning;
// - `packs` pins are verified and their hooks join at the pin's scope (src/packs/pins.ts): a refused
//   policy-scope pack is a policy failure, a refused user-scope pack is skipped with a warning.
import { basename, dirname, resolve } from 'node:path';
import { EventCatalogue } from '../contract/events.js';
import type { Scope } from '../contract/types.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import { collectEvents } from './collect-events.js';
import { collectLimits } from './collect-limits.js';
import type { Limits } from './defaults.js';
import type { Diagnostic, DiagnosticSink } from './diagnostics.js';
import { dialectOfFile } from './dialect.js';
import { collectGrants, type Grants, gatedHookTypes, scopeGate, tenantGate } from './grants.js';
import { collectHookTypePolicy, type HookTypeOptions, type HookTypePolicy } from './hook-type-policy.js';
import { type Layer, mergeLayers } from './merge-layers.js';
import { type LoadedTenant, mergeTenants } from './merge-tenants.js';
import { normalizeHooksMap } from './normalize-entries.js';
import type { PackStatus, PinLoader, RemotePinTarget } from './pin-loader.js';
import { findPlugin } from './plugin-root.js';
import { type LoadRead, recordReads } from './read-log.js';
import { readSource, type SourceSpec } from './read-source.js';
import type { LimitsByScope, ScopeLimits } from './scope-limits.js';
import { collectSessionEnvPolicy, type SessionEnvPolicy } from './session-env-policy.js';
import { readTenants, type TenantPart } from './tenants.js';
import { warnIgnoredKeys } from './top-level-keys.js';
import type { WatchTarget } from './watch-target.js';

export interface LoadOptions {
  readonly config: readonly SourceSpec[];
  readonly policy: readonly SourceSpec[];
  /** Caller-set limits win over every file. */
  readonly limits?: Partial<Limits> | undefined;
  /** Make every skipped entry (and every error) fatal, instead of a warning with the rest loaded. */
  readonly strict?: boolean | undefined;
  /**
   * Runtime tenants: the policy level of the executor they join (its policy files and options),
   * instead of one built here from defaults, policy sources and `limits`.
   */
  readonly baseLimits?: ScopeLimits | undefined;
  /**
   * Loads the packs that `packs` arrays pin (src/packs: `packPinLoader(remote)`). Required: a loader
   * that could not load packs would drop a policy pack's guards without a word.
   */
  readonly pins: PinLoader;
  /** The caller's allowed http hook URLs and variables, and the evaluators it registered. */
  readonly hookTypes?: HookTypeOptions | undefined;
  /** Runtime tenants: the executor's resolved policy, instead of one built from policy sources here. */
  readonly baseHookTypes?: HookTypePolicy | undefined;
  /** Runtime tenants: the executor's grants, instead of ones read from policy sources here. */
  readonly baseGrants?: Grants | undefined;
  /** Runtime tenants: every config source is this tenant's (its hooks answer to its grant). */
  readonly tenant?: string | undefined;
}

export interface LoadedConfig {
  /** Policy, then project, then user hooks, each in file order, overrides applied. */
  readonly hooks: readonly HookDefinition[];
  readonly catalogue: EventCatalogue;
  /** The executor's limits (pool shape, and the policy level of the per-scope ones). */
  readonly limits: Limits;
  /** The limits each scope's hooks run under (a lower scope only tightens). */
  readonly scopeLimits: LimitsByScope;
  /** Non-empty when a policy source failed: deny-capable events deny. */
  readonly policyFailures: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
  /** Problems that make the configuration unusable (a named config file that does not exist). */
  readonly fatal: readonly Diagnostic[];
  /** Every pinned pack and how it fared. */
  readonly packs: readonly PackStatus[];
  /** What hot reload watches: the config files, JS hook sources, the packs' directories and key files. */
  readonly watchTargets: readonly WatchTarget[];
  /**
   * Every file, directory and existence the load depended on, with the digest of what it saw
   * (read-log.ts): a daemon answers for this load only while they all still digest the same.
   */
  readonly reads: readonly LoadRead[];
  /** Url pins (without a digest) that a running executor polls for new bundles. */
  readonly remotePins: readonly RemotePinTarget[];
  /** Tenants declared under `tenants`: each with the policy hooks plus its own. */
  readonly tenants: ReadonlyMap<string, LoadedTenant>;
  /** The policy's layers (its files and packs): what a tenant's own layers are merged under. */
  readonly policyLayers: readonly Layer[];
  /** What http, prompt and agent hooks were loaded under (runtime tenants load under it too). */
  readonly hookTypes: HookTypePolicy;
  /** What the policy consents to hooks setting for the session (its `sessionEnv`). */
  readonly sessionEnv: SessionEnvPolicy;
  /** What the policy grants project files' and tenants' hooks (grants.ts). */
  readonly grants: Grants;
}

/** Pins are judged pack by pack (their own policy failures), not as part of their file's validity. */
const isPinDiagnostic = (d: Diagnostic) => d.path === 'packs' || d.path.startsWith('packs[');

export async function loadConfig(options: LoadOptions): Promise<LoadedConfig> {
  const { value, reads } = await recordReads(() => loadRecorded(options));
  // The files read besides config files and packs (JS hook sources) are watched too.
  const sources = reads
    .filter((r) => r.kind === 'file')
    .map((r) => ({ dir: dirname(r.path), name: basename(r.path) }));
  return { ...value, reads, watchTargets: [...value.watchTargets, ...sources] };
}

async function loadRecorded(options: LoadOptions): Promise<Omit<LoadedConfig, 'reads'>> {
  const fatal: Diagnostic[] = [];
  const sources = await Promise.all(
    [...options.policy.map((s) => ({ ...s, scope: 'policy' as const })), ...options.config].map((s) =>
      readSource(s, fatal),
    ),
  );
  const catalogue = new EventCatalogue(collectEvents(sources));
  const { byScope: scopeLimits, executor: limits } = collectLimits(
    sources,
    options.limits,
    options.baseLimits,
  );
  // Read even under a base policy: a runtime tenant's file that sets the keys hears why they do nothing.
  const readHookTypes = collectHookTypePolicy(
    sources.map((s) => ({ scope: s.spec.scope, sink: s.sink, value: s.value })),
    options.hookTypes,
  );
  const hookTypes = options.baseHookTypes ?? readHookTypes;
  const sessionEnv = collectSessionEnvPolicy(
    sources.map((s) => ({ scope: s.spec.scope, sink: s.sink, value: s.value })),
  );
  // Read even under a base policy: a runtime tenant's file that sets the key hears why it does nothing.
  const readGrants = collectGrants(
    sources.map((s) => ({ scope: s.spec.scope, sink: s.sink, value: s.value })),
  );
  const grants = options.baseGrants ?? readGrants;

  const layers: Layer[] = [];
  const packSinks: DiagnosticSink[] = [];
  const packs: PackStatus[] = [];
  const policyFailures: string[] = [];
  const watchTargets: WatchTarget[] = [];
  const remotePins: RemotePinTarget[] = [];
  const tenantParts = new Map<string, { scope: Scope; part: TenantPart }[]>();
  for (const src of sources) {
    if (src.spec.kind === 'file') {
      const file = resolve(src.spec.path);
      watchTargets.push({ dir: dirname(file), name: basename(file) });
    }
    if (src.value === undefined) continue;
    const { dialect, also } = dialectOfFile(
      src.value,
      src.sink,
      new Set(catalogue.names()),
      src.spec.kind === 'file' ? resolve(src.spec.path) : undefined,
    );
    warnIgnoredKeys(dialect, src.value, src.sink, src.spec.scope === 'policy');
    // A project file's hooks, and every hook of a runtime tenant's files, answer to their grant.
    const gate =
      options.tenant !== undefined ? tenantGate(grants, options.tenant) : scopeGate(grants, src.spec.scope);
    const ctx = {
      scope: src.spec.scope,
      sink: src.sink,
      configDir: src.dir,
      plugin: src.spec.kind === 'file' ? findPlugin(src.dir) : undefined,
      dialect,
      alsoDialects: also,
      limits: scopeLimits[src.spec.scope],
      scopeLimits,
      catalogue,
      pins: options.pins,
      hookTypes: gatedHookTypes(hookTypes, gate),
      gate,
      grants,
      baseHookTypes: hookTypes,
    };
    const hooks: HookDefinition[] = [];
    if (src.value.hooks !== undefined)
      hooks.push(...(await normalizeHooksMap(src.value.hooks, 'hooks', ctx)));
    if (src.value.policyHooks !== undefined) {
      if (src.spec.scope === 'policy')
        hooks.push(...(await normalizeHooksMap(src.value.policyHooks, 'policyHooks', ctx)));
      else {
        src.sink.warn(
          'policyHooks',
          'policyHooks are only honoured in policy files (--policy / the `policy` option); these hooks do not run',
          true,
        );
      }
    }
    layers.push({ scope: src.spec.scope, sink: src.sink, hooks });
    if (src.value.tenants !== undefined) {
      for (const [id, part] of await readTenants(src.value.tenants, ctx)) {
        const list = tenantParts.get(id) ?? [];
        list.push({ scope: src.spec.scope, part });
        tenantParts.set(id, list);
        remotePins.push(...part.remotePins);
      }
    }
    if (src.value.packs !== undefined) {
      const pinned = await options.pins(src.value.packs, {
        ...ctx,
        policySource: src.spec.scope === 'policy',
      });
      for (const l of pinned.layers) {
        layers.push(l);
        packSinks.push(l.sink);
      }
      policyFailures.push(...pinned.policyFailures);
      packs.push(...pinned.statuses);
      watchTargets.push(...pinned.watch);
      remotePins.push(...pinned.remote);
    }
  }

  const hooks = mergeLayers(layers);
  const policyLayers = layers.filter((l) => l.scope === 'policy');
  const tenants = mergeTenants(tenantParts, policyLayers);
  for (const src of sources) {
    if (src.spec.scope !== 'policy') continue;
    // A tenant's problem is that tenant's (it fails closed alone): not the policy file's.
    const bad = src.sink.items.find(
      (d) => (d.severity === 'error' || d.skipped) && !isPinDiagnostic(d) && d.tenant === undefined,
    );
    if (bad !== undefined) {
      policyFailures.push(
        `policy ${src.sink.file} ${src.value === undefined ? 'could not be loaded' : 'is invalid'}: ${bad.path === '' ? '' : `${bad.path}: `}${bad.message}`,
      );
    }
  }
  const diagnostics = [...sources.map((s) => s.sink), ...packSinks].flatMap((sink) => sink.items);
  if (options.strict === true) {
    for (const d of diagnostics)
      if ((d.severity === 'error' || d.skipped) && !fatal.includes(d)) fatal.push(d);
  }
  return {
    hooks,
    catalogue,
    limits,
    scopeLimits,
    policyFailures,
    // A refused pack's own diagnostics are summed up in its pin's refusal; loaded packs report theirs.
    diagnostics,
    fatal,
    packs,
    watchTargets,
    remotePins,
    tenants,
    policyLayers,
    hookTypes,
    sessionEnv,
    grants,
  };
}
