// Limits by scope (trust invariant 1: a lower scope can only tighten). Every limit key has a rule in
// LIMIT_RULES, one table that the tests iterate:
// - `direction`: a cap can only shrink, a floor can only rise, from one scope to the next less
//   trusted one;
// - `reach`: `scope` limits act on hooks, so each scope has its own value; a value written in a file
//   applies to the hooks of that file's scope and of every less-trusted scope (the trust order of
//   src/contract/scopes.ts: trusted > policy > user > project), never to a more trusted one: a
//   user's file restricts the repository's (project) hooks, a project file never reaches user or
//   policy hooks; `executor` limits shape the one executor shared by every scope;
// - `fromLowerScopes`: whether a project/user file may tighten an executor limit (`tighten`: only
//   where a tighter value cannot make a higher-scope hook fail) or not at all (`ignored`).
// The policy level is hookwarden's defaults, then the policy files in order, then the caller's own
// limits (library `limits` option), which win over every file. A user or project value that would
// loosen what a more trusted level set is ignored with a warning.
import { availableParallelism } from 'node:os';
import { moreTrusted, reachedBy, type Scope, TRUST_ORDER } from '../contract/scopes.js';
import {
  DEFAULTS,
  ISOLATION_LEVELS,
  type IsolationLevel,
  type Limits,
  strongerIsolation,
} from './defaults.js';
import type { DiagnosticSink } from './diagnostics.js';

export interface LimitRule {
  readonly direction: 'cap' | 'floor';
  readonly reach: 'scope' | 'executor';
  readonly fromLowerScopes: 'tighten' | 'ignored';
}

/** One rule per limit key (the `satisfies` clause makes a new key without a rule a type error). */
export const LIMIT_RULES = Object.freeze({
  maxHookCalls: { direction: 'cap', reach: 'scope', fromLowerScopes: 'tighten' },
  maxDeclaredBudgetMs: { direction: 'cap', reach: 'scope', fromLowerScopes: 'tighten' },
  maxInputBytes: { direction: 'cap', reach: 'scope', fromLowerScopes: 'tighten' },
  maxInputDepth: { direction: 'cap', reach: 'scope', fromLowerScopes: 'tighten' },
  minIsolation: { direction: 'floor', reach: 'scope', fromLowerScopes: 'tighten' },
  // A wasm hook's memory cap: a file lowers it for its own scope's hooks and the less trusted ones.
  maxWasmMemoryBytes: { direction: 'cap', reach: 'scope', fromLowerScopes: 'tighten' },
  // Fewer slots or threads only queue hooks (queue time is not part of any deadline); a shorter kill
  // grace or backstop only acts on hooks already past their deadline.
  maxConcurrentCommands: { direction: 'cap', reach: 'executor', fromLowerScopes: 'tighten' },
  killGraceMs: { direction: 'cap', reach: 'executor', fromLowerScopes: 'tighten' },
  jsThreads: { direction: 'cap', reach: 'executor', fromLowerScopes: 'tighten' },
  jsBackstopGraceMs: { direction: 'cap', reach: 'executor', fromLowerScopes: 'tighten' },
  // A smaller heap would clamp the memory of policy JS hooks: only policy files and the caller set it.
  jsHeapCeilingBytes: { direction: 'cap', reach: 'executor', fromLowerScopes: 'ignored' },
  // A tighter async queue or rate refuses policy hooks' work (queue_full, rate_limited) too.
  maxAsyncQueued: { direction: 'cap', reach: 'executor', fromLowerScopes: 'ignored' },
  // How tenants share the lanes is the operator's: a lower scope neither turns it off nor refuses
  // policy hooks' work sooner.
  fairShareIdleMs: { direction: 'cap', reach: 'executor', fromLowerScopes: 'ignored' },
  tenantMaxQueued: { direction: 'cap', reach: 'executor', fromLowerScopes: 'ignored' },
  tenantRatePerSec: { direction: 'cap', reach: 'executor', fromLowerScopes: 'ignored' },
  tenantRateBurst: { direction: 'cap', reach: 'executor', fromLowerScopes: 'ignored' },
} as const satisfies Record<keyof Limits, LimitRule>);

export type LimitKey = keyof typeof LIMIT_RULES;

/**
 * Limits as they apply to the hooks of one scope: `minIsolation` is resolved to one level. The
 * executor-reach keys hold the executor's value in every scope.
 */
export type ScopeLimits = Omit<Limits, 'minIsolation'> & { readonly minIsolation: IsolationLevel };

export type LimitsByScope = Readonly<Record<Scope, ScopeLimits>>;

/** hookwarden's defaults as the limits of one scope. */
export const DEFAULT_SCOPE_LIMITS: ScopeLimits = Object.freeze({
  ...DEFAULTS.limits,
  minIsolation: 'process',
});

/** One source's parsed `limits`, with where it came from. */
export interface LimitsSource {
  readonly scope: Scope;
  readonly limits: Partial<Limits>;
  readonly sink: DiagnosticSink;
}

type Mutable = { -readonly [K in keyof ScopeLimits]: ScopeLimits[K] };
const rank = (level: IsolationLevel) => ISOLATION_LEVELS.indexOf(level);
/** The scopes below policy, most trusted first (the order their files are applied in). */
const LOWER = TRUST_ORDER.filter((s): s is 'user' | 'project' => s === 'user' || s === 'project');

/** jsThreads 0 means one per CPU: compare effective counts. */
const effective = (key: LimitKey, v: number) => (key === 'jsThreads' && v === 0 ? availableParallelism() : v);

/** The floor a per-scope `minIsolation` (or one level) written at the policy level gives `scope`. */
function floorFor(min: Limits['minIsolation'], scope: Scope): IsolationLevel {
  if (min === undefined) return ISOLATION_LEVELS[0];
  if (typeof min === 'string') return min;
  if (scope === 'trusted') return ISOLATION_LEVELS[0];
  // A floor for a scope holds for every less-trusted one too: a repository's hooks are never
  // isolated less than the user's or the policy's.
  let level: IsolationLevel = ISOLATION_LEVELS[0];
  for (const s of TRUST_ORDER.slice(0, TRUST_ORDER.indexOf(scope) + 1))
    if (s !== 'trusted') level = strongerIsolation(level, min[s] ?? ISOLATION_LEVELS[0]);
  return level;
}

/** Whether `next` is at least as tight as `current` for `key`. */
function tightens(key: LimitKey, current: unknown, next: unknown): boolean {
  if (key === 'minIsolation') return rank(next as IsolationLevel) >= rank(current as IsolationLevel);
  return effective(key, next as number) <= effective(key, current as number);
}

/**
 * Resolves every scope's limits and the executor's. `base` (runtime tenants) replaces the policy
 * level built from defaults, policy sources and `override`.
 */
export function resolveScopeLimits(
  sources: readonly LimitsSource[],
  override: Partial<Limits> | undefined,
  base?: ScopeLimits,
): { byScope: LimitsByScope; executor: Limits } {
  let policyLevel: Mutable;
  let executorMin: Limits['minIsolation'];
  if (base !== undefined) {
    policyLevel = { ...base };
    executorMin = base.minIsolation;
  } else {
    const merged: Record<string, unknown> = { ...DEFAULTS.limits };
    for (const src of sources) if (src.scope === 'policy') assignDefined(merged, src.limits);
    assignDefined(merged, override ?? {});
    executorMin = merged.minIsolation as Limits['minIsolation'];
    policyLevel = { ...(merged as unknown as Limits), minIsolation: floorFor(executorMin, 'policy') };
    warnDescendingFloors(sources, executorMin);
  }
  // Each lower scope starts from the level of the scope above it in the trust order; floors written
  // per scope at the policy level hold.
  const levels = {} as Record<'user' | 'project', Mutable>;
  let above = policyLevel;
  for (const scope of LOWER) {
    levels[scope] = {
      ...above,
      minIsolation: strongerIsolation(above.minIsolation, floorFor(executorMin, scope)),
    };
    above = levels[scope];
  }
  const executor: Record<string, unknown> = { ...policyLevel, minIsolation: executorMin };
  // In trust order: what the user's file tightened is in force before the project file is read.
  for (const scope of LOWER) {
    for (const src of sources) {
      if (src.scope !== scope) continue;
      for (const [k, v] of Object.entries(src.limits)) {
        if (v === undefined || !Object.hasOwn(LIMIT_RULES, k)) continue;
        applyLower(k as LimitKey, v, scope, src.sink, levels, executor);
      }
    }
  }
  for (const k of Object.keys(LIMIT_RULES) as LimitKey[]) {
    if (LIMIT_RULES[k].reach !== 'executor') continue;
    for (const level of [policyLevel, ...Object.values(levels)])
      (level as Record<string, unknown>)[k] = executor[k];
  }
  const frozen = (l: Mutable) => Object.freeze({ ...l }) as ScopeLimits;
  const policy = frozen(policyLevel);
  return {
    byScope: Object.freeze({
      trusted: policy,
      policy,
      user: frozen(levels.user),
      project: frozen(levels.project),
    }),
    executor: Object.freeze(executor) as unknown as Limits,
  };
}

/** A policy per-scope floor that would isolate a less-trusted scope less than a more trusted one. */
function warnDescendingFloors(sources: readonly LimitsSource[], min: Limits['minIsolation']): void {
  if (min === undefined || typeof min === 'string') return;
  for (const scope of LOWER) {
    const written = min[scope];
    const floor = floorFor(min, scope);
    if (written === undefined || written === floor) continue;
    const src = [...sources].reverse().find((s) => {
      const m = s.scope === 'policy' ? s.limits.minIsolation : undefined;
      return m !== undefined && typeof m !== 'string' && m[scope] !== undefined;
    });
    src?.sink.warn(
      `limits.minIsolation.${scope}`,
      `raised to "${floor}": ${scope} hooks are less trusted than the scopes above them (trust order trusted > policy > user > project), so they are never isolated less`,
    );
  }
}

function assignDefined(target: Record<string, unknown>, source: Partial<Limits>): void {
  for (const [k, v] of Object.entries(source)) if (v !== undefined) target[k] = v;
}

function tightenInto(level: Mutable, key: LimitKey, value: unknown): void {
  if (tightens(key, level[key], value)) (level as Record<string, unknown>)[key] = value;
}

function applyLower(
  key: LimitKey,
  value: unknown,
  scope: 'project' | 'user',
  sink: DiagnosticSink,
  levels: Record<'project' | 'user', Mutable>,
  executor: Record<string, unknown>,
): void {
  const rule: LimitRule = LIMIT_RULES[key];
  const path = `limits.${key}`;
  const where = `a ${scope} file`;
  const fix = 'set it in a policy file (--policy) or the library `limits` option';
  if (rule.fromLowerScopes === 'ignored') {
    sink.warn(
      path,
      `ignored: ${key} shapes the executor that runs policy hooks too, so ${where} cannot set it; ${fix}`,
    );
    return;
  }
  if (key === 'minIsolation') {
    applyIsolation(value as NonNullable<Limits['minIsolation']>, scope, sink, levels);
    return;
  }
  const current = rule.reach === 'executor' ? executor[key] : levels[scope][key];
  if (!tightens(key, current, value)) {
    sink.warn(
      path,
      `ignored: ${value} would loosen the limit in force (${current}); ${where} can only lower a cap (a lower scope can only tighten); ${fix}`,
    );
    return;
  }
  if (rule.reach === 'executor') executor[key] = value;
  // Its own scope and every less-trusted one.
  else for (const target of reachedBy(scope)) tightenInto(levels[target as 'project' | 'user'], key, value);
}

function applyIsolation(
  value: NonNullable<Limits['minIsolation']>,
  scope: 'project' | 'user',
  sink: DiagnosticSink,
  levels: Record<'project' | 'user', Mutable>,
): void {
  const perScope: [Scope, IsolationLevel][] =
    typeof value === 'string'
      ? [[scope, value]]
      : (Object.entries(value).filter(([, v]) => v !== undefined) as [Scope, IsolationLevel][]);
  const warned = new Set<string>();
  const warn = (path: string, message: string) => {
    if (!warned.has(path)) sink.warn(path, message);
    warned.add(path);
  };
  for (const [target, level] of perScope) {
    const path = typeof value === 'string' ? 'limits.minIsolation' : `limits.minIsolation.${target}`;
    if (moreTrusted(target, scope)) {
      warn(
        path,
        `ignored: a ${scope} file cannot set the isolation of ${target} hooks (a file's limits reach its own scope and the less-trusted ones: trusted > policy > user > project)`,
      );
      continue;
    }
    const l = levels[target as 'project' | 'user'];
    if (rank(level) < rank(l.minIsolation)) {
      warn(
        path,
        `ignored: "${level}" would lower the isolation floor in force ("${l.minIsolation}"); a lower scope can only raise it`,
      );
      continue;
    }
    // The target and every scope less trusted than it.
    for (const s of reachedBy(target)) {
      const t = levels[s as 'project' | 'user'];
      t.minIsolation = strongerIsolation(t.minIsolation, level);
    }
  }
}
