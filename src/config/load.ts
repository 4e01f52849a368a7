// Loads config sources into one merged, ordered list of hooks (docs/configuration.md):
// - `policy` sources are policy scope in full (their `hooks` and `policyHooks`); if one cannot be
//   read, parsed or validated, the result carries a policy failure and deny-capable events deny;
// - `config` sources are project (default) or user scope and merge in order: a later layer replaces
//   an earlier one's hook with the same event+name, project replaces user; a `policyHooks` key there is
//   ignored with a warning; invalid entries are skipped with a warning while the rest loads;
// - nothing replaces a policy hook: a clash drops the other hook with a warning;
// - `packs` pins are verified and their hooks join at the pin's scope (src/packs/pins.ts): a refused
//   policy-scope pack is a policy failure, a refused user-scope pack is skipped with a warning.
import { basename, dirname } from 'node:path';
import { EventCatalogue } from '../contract/events.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import { collectEvents } from './collect-events.js';
import { collectLimits } from './collect-limits.js';
import type { Limits } from './defaults.js';
import type { Diagnostic } from './diagnostics.js';
import { collectGrants, type Grants } from './grants.js';
import { collectHookTypePolicy, type HookTypeOptions, type HookTypePolicy } from './hook-type-policy.js';
import { gatherSources, type SourceTerms } from './load-sources.js';
import { type Layer, mergeLayers } from './merge-layers.js';
import { type LoadedTenant, mergeTenants } from './merge-tenants.js';
import type { PackStatus, PinLoader, RemotePinTarget } from './pin-loader.js';
import { type LoadRead, recordReads } from './read-log.js';
import { type ReadSource, readSource, type SourceSpec } from './read-source.js';
import type { LimitsByScope, ScopeLimits } from './scope-limits.js';
import { collectSessionEnvPolicy, type SessionEnvPolicy } from './session-env-policy.js';
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
  const { limits, sessionEnv, ...terms } = sourceTerms(sources, options);
  const { catalogue, scopeLimits, hookTypes, grants } = terms;
  const gathered = await gatherSources(sources, terms);
  const { layers, packSinks, packs, policyFailures, watchTargets, remotePins } = gathered;

  const hooks = mergeLayers(layers);
  const policyLayers = layers.filter((l) => l.scope === 'policy');
  const tenants = mergeTenants(gathered.tenantParts, policyLayers);
  policyFailures.push(...policyFileFailures(sources));
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

/** What the sources say about the whole load: events, limits, hook types, session env and grants. */
function sourceTerms(
  sources: readonly ReadSource[],
  options: LoadOptions,
): SourceTerms & { limits: Limits; sessionEnv: SessionEnvPolicy } {
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
  return {
    catalogue,
    scopeLimits,
    limits,
    hookTypes,
    sessionEnv,
    grants,
    pins: options.pins,
    tenant: options.tenant,
  };
}

/** One failure for each policy source that could not be loaded or is invalid, naming its first problem. */
function policyFileFailures(sources: readonly ReadSource[]): string[] {
  const failures: string[] = [];
  for (const src of sources) {
    if (src.spec.scope !== 'policy') continue;
    // A tenant's problem is that tenant's (it fails closed alone): not the policy file's.
    const bad = src.sink.items.find(
      (d) => (d.severity === 'error' || d.skipped) && !isPinDiagnostic(d) && d.tenant === undefined,
    );
    if (bad !== undefined) {
      failures.push(
        `policy ${src.sink.file} ${src.value === undefined ? 'could not be loaded' : 'is invalid'}: ${bad.path === '' ? '' : `${bad.path}: `}${bad.message}`,
      );
    }
  }
  return failures;
}
