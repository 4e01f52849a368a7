// Loads config sources into one merged, ordered list of hooks (DESIGN §3):
// - `policy` sources are policy scope in full (their `hooks` and `policyHooks`); if one cannot be
//   read, parsed or validated, the result carries a policy failure and deny-capable events deny;
// - `config` sources are project (default) or user scope and merge in order: a later layer replaces
//   an earlier one's hook with the same event+name, project replaces user; a `policyHooks` key there is
//   ignored with a warning; invalid entries are skipped with a warning while the rest loads;
// - nothing replaces a policy hook: a clash drops the other hook with a warning;
// - `packs` pins are verified and their hooks join at the pin's scope (src/packs/pins.ts): a refused
//   policy-scope pack is a policy failure, a refused user-scope pack is skipped with a warning.
import { basename, dirname, resolve } from 'node:path';
import { DIALECTS, type Dialect } from '../contract/dialects.js';
import {
  DEFAULT_EVENTS,
  defineEvent,
  EVENT_ALIASES,
  EventCatalogue,
  type EventDefinition,
} from '../contract/events.js';
import { isObject, issueMessages, joinPath, renderValue } from '../contract/messages.js';
import type { Scope } from '../contract/types.js';
import { loadPackPins, type PackStatus } from '../packs/pins.js';
import type { RemotePacks } from '../packs/remote/remote-packs.js';
import type { RemotePinTarget } from '../packs/remote/url-pin-fields.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import type { Limits } from './defaults.js';
import { type Diagnostic, DiagnosticSink } from './diagnostics.js';
import { detectDialect } from './dialect.js';
import { type Layer, mergeLayers } from './merge-layers.js';
import { normalizeHooksMap } from './normalize-entries.js';
import { findPluginRoot } from './plugin-root.js';
import { readJsonFile } from './read-json.js';
import { eventDefinitionSchema, limitsSchema } from './schema.js';
import {
  type LimitsByScope,
  type LimitsSource,
  mergeTenantLimits,
  resolveScopeLimits,
  type ScopeLimits,
} from './scope-limits.js';
import { didYouMean } from './suggest.js';
import type { TenantLimits } from './tenant-limits.js';
import { readTenants, type TenantPart } from './tenants.js';
import type { WatchTarget } from './watch-target.js';

export type SourceSpec =
  | {
      readonly kind: 'file';
      readonly path: string;
      readonly scope: Scope;
      /** A missing file is skipped silently (a user-level config usually is optional). */
      readonly optional?: boolean;
    }
  | {
      readonly kind: 'object';
      readonly value: unknown;
      readonly scope: Scope;
      readonly label: string;
      readonly dir: string;
    };

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
  /** Fetches the bundles of url pins (an executor's, which remembers ETags); default: a fresh one. */
  readonly remote?: RemotePacks | undefined;
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
  /** What hot reload watches: the config files, the packs' directories and key files. */
  readonly watchTargets: readonly WatchTarget[];
  /** Url pins (without a digest) that a running executor polls for new bundles. */
  readonly remotePins: readonly RemotePinTarget[];
  /** Tenants declared under `tenants`: each with the policy hooks plus its own. */
  readonly tenants: ReadonlyMap<string, LoadedTenant>;
}

export interface LoadedTenant {
  /** Policy hooks first, then the tenant's, overrides applied. */
  readonly hooks: readonly HookDefinition[];
  readonly limits: TenantLimits;
  /** A policy-scope pack of this tenant failed: its deny-capable events deny. */
  readonly policyFailures: readonly string[];
}

const TOP_LEVEL = new Set([
  '$schema',
  'dialect',
  'hooks',
  'policyHooks',
  'events',
  'limits',
  'packs',
  'tenants',
  'description',
]);

/** Pins are judged pack by pack (their own policy failures), not as part of their file's validity. */
const isPinDiagnostic = (d: Diagnostic) => d.path === 'packs' || d.path.startsWith('packs[');

interface ReadSource {
  readonly spec: SourceSpec;
  readonly sink: DiagnosticSink;
  readonly dir: string;
  readonly value: Record<string, unknown> | undefined;
}

async function readSource(spec: SourceSpec, fatal: Diagnostic[]): Promise<ReadSource> {
  if (spec.kind === 'object') {
    const sink = new DiagnosticSink(spec.label);
    if (!isObject(spec.value)) {
      sink.error('', `expected a config object like {"hooks": {...}}, got ${renderValue(spec.value)}`);
      return { spec, sink, dir: spec.dir, value: undefined };
    }
    return { spec, sink, dir: spec.dir, value: spec.value };
  }
  const file = resolve(spec.path);
  const sink = new DiagnosticSink(spec.path);
  const read = await readJsonFile(file);
  // A file that cannot be read or parsed at all is fatal, whatever its scope: nothing of it can be
  // trusted to be what was meant (a user file marked optional may simply not exist).
  const unusable = (message: string) => {
    sink.error('', message, false);
    fatal.push(sink.items[sink.items.length - 1]!);
    return { spec, sink, dir: dirname(file), value: undefined };
  };
  if (!read.ok) {
    if (read.kind === 'missing' && spec.optional === true)
      return { spec, sink, dir: dirname(file), value: undefined };
    return unusable(read.kind === 'missing' ? 'file not found' : read.message);
  }
  if (!isObject(read.value))
    return unusable(`expected a JSON object at the top level, got ${renderValue(read.value)}`);
  for (const d of read.duplicates) {
    const where = `line ${d.first.line}, column ${d.first.column} and line ${d.second.line}, column ${d.second.column}`;
    // A reviewer reads the first, the loader would keep the last: in a policy file that fails closed.
    if (spec.scope === 'policy')
      sink.error(
        d.path,
        `key written twice (${where}); a policy file must be unambiguous, so it fails closed`,
      );
    else sink.warn(d.path, `key written twice (${where}); the second one is used`);
  }
  return { spec, sink, dir: dirname(file), value: read.value };
}

/** Custom events, and built-in events with their mode switched (first setting wins: policy first). */
function collectEvents(sources: readonly ReadSource[]): EventDefinition[] {
  const custom = new Map<string, EventDefinition>();
  const modes = new Map<string, 'serial' | 'parallel'>();
  const definedBy = new Map<string, string>();
  const builtIn = new Set([...DEFAULT_EVENTS.map((e) => e.name), ...Object.keys(EVENT_ALIASES)]);
  for (const src of sources) {
    const events = src.value?.events;
    if (events === undefined) continue;
    if (!isObject(events)) {
      src.sink.error('events', `expected an object of event definitions, got ${renderValue(events)}`);
      continue;
    }
    for (const name of Object.keys(events)) {
      const path = joinPath('events', name);
      if (builtIn.has(name)) {
        // A built-in event can switch its mode, and only that (Claude Code runs tool hooks in parallel).
        const spec = events[name];
        const canonical = EVENT_ALIASES[name]?.event ?? name;
        if (
          isObject(spec) &&
          Object.keys(spec).length === 1 &&
          (spec.mode === 'serial' || spec.mode === 'parallel')
        ) {
          if (!modes.has(canonical)) modes.set(canonical, spec.mode);
          else if (modes.get(canonical) !== spec.mode)
            src.sink.warn(
              path,
              `the mode of ${canonical} is already set to "${modes.get(canonical)}"; this one is ignored`,
            );
          continue;
        }
        src.sink.error(
          path,
          `"${name}" is a built-in event or alias: only its mode can be set, as {"mode": "serial"|"parallel"}, got ${renderValue(spec)}`,
        );
        continue;
      }
      if (!/^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/.test(name)) {
        src.sink.error(
          path,
          `event names are 1-64 letters, digits, _ . : - starting with a letter, got ${renderValue(name)}`,
        );
        continue;
      }
      const parsed = eventDefinitionSchema.safeParse(events[name]);
      if (!parsed.success) {
        for (const m of issueMessages(parsed.error.issues, events[name], path))
          src.sink.error(m.path, m.message);
        continue;
      }
      const d = parsed.data;
      const earlier = custom.get(name);
      if (earlier !== undefined) {
        // The first definition stands: policy files are read first, and a lower scope cannot change
        // how a higher scope's event behaves (e.g. turn canDeny off under a policy guard).
        const same =
          earlier.mode === d.mode &&
          earlier.canDeny === d.canDeny &&
          earlier.toolScoped === (d.toolScoped === true) &&
          JSON.stringify(earlier.honours) === JSON.stringify(d.honours ?? []);
        if (!same)
          src.sink.warn(
            path,
            `"${name}" is already defined by ${definedBy.get(name)}; this different definition is ignored`,
          );
        continue;
      }
      definedBy.set(name, src.sink.file);
      custom.set(
        name,
        defineEvent(name, {
          mode: d.mode,
          canDeny: d.canDeny,
          honours: d.honours ?? [],
          toolScoped: d.toolScoped === true,
        }),
      );
    }
  }
  const builtIns = DEFAULT_EVENTS.map((e) => {
    const mode = modes.get(e.name);
    return mode === undefined || mode === e.mode ? e : Object.freeze({ ...e, mode });
  });
  return [...builtIns, ...custom.values()];
}

/** The file's declared dialect, or the one its shape shows. */
function dialectOf(value: Record<string, unknown>, sink: DiagnosticSink, catalogue: EventCatalogue): Dialect {
  const declared = value.dialect;
  if (declared !== undefined) {
    if (typeof declared === 'string' && (DIALECTS as readonly string[]).includes(declared))
      return declared as Dialect;
    sink.error(
      'dialect',
      `expected one of ${DIALECTS.map((d) => `"${d}"`).join(', ')}, got ${renderValue(declared)}`,
      false,
    );
  }
  return detectDialect(value, new Set(catalogue.names()));
}

/** Each source's `limits`, validated (problems name their path), then resolved per scope. */
function collectLimits(
  sources: readonly ReadSource[],
  override: Partial<Limits> | undefined,
  base: ScopeLimits | undefined,
): { byScope: LimitsByScope; executor: Limits } {
  const parsedSources: LimitsSource[] = [];
  for (const src of sources) {
    const limits = src.value?.limits;
    if (limits === undefined) continue;
    const parsed = limitsSchema.safeParse(limits);
    if (!parsed.success) {
      for (const m of issueMessages(parsed.error.issues, limits, 'limits')) src.sink.error(m.path, m.message);
      continue;
    }
    parsedSources.push({ scope: src.spec.scope, limits: parsed.data as Partial<Limits>, sink: src.sink });
  }
  return resolveScopeLimits(parsedSources, override, base);
}

export async function loadConfig(options: LoadOptions): Promise<LoadedConfig> {
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
    const ignored = Object.keys(src.value).filter((k) => !TOP_LEVEL.has(k));
    if (ignored.length > 0) {
      const hints = ignored.map((k) => didYouMean(k, TOP_LEVEL)).filter((h) => h !== '');
      src.sink.warn(
        '',
        `ignored top-level keys (not hook configuration): ${ignored.map((k) => `${k}${didYouMean(k, TOP_LEVEL)}`).join(', ')}`,
        src.spec.scope === 'policy' || hints.length > 0,
      );
    }
    const ctx = {
      scope: src.spec.scope,
      sink: src.sink,
      configDir: src.dir,
      pluginRoot: src.spec.kind === 'file' ? findPluginRoot(src.dir) : undefined,
      dialect: dialectOf(src.value, src.sink, catalogue),
      limits: scopeLimits[src.spec.scope],
      scopeLimits,
      catalogue,
      remote: options.remote,
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
      const pinned = await loadPackPins(src.value.packs, {
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
  const tenants = mergeTenants(tenantParts, layers);
  for (const src of sources) {
    if (src.spec.scope !== 'policy') continue;
    const bad = src.sink.items.find((d) => (d.severity === 'error' || d.skipped) && !isPinDiagnostic(d));
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
  };
}

/** Each tenant: the policy layers plus its own; limits set by policy, tightened by lower files. */
function mergeTenants(
  parts: Map<string, { scope: Scope; part: TenantPart }[]>,
  layers: readonly Layer[],
): Map<string, LoadedTenant> {
  const policy = layers.filter((l) => l.scope === 'policy');
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
    out.set(id, {
      hooks: mergeLayers([...policy, ...list.flatMap((p) => p.part.layers)]),
      limits,
      policyFailures: list.flatMap((p) => p.part.policyFailures),
    });
  }
  return out;
}
