// Limits by scope (trust invariant 1: a lower scope can only tighten). Every limit key has a rule in
// LIMIT_RULES, one table that the tests iterate:
// - `direction`: a cap can only shrink, a floor can only rise, from one scope to the next lower one;
// - `reach`: `scope` limits act on hooks, so each scope has its own value, and a value written in a
//   project or user file applies to the hooks of that scope and below, never to policy (or trusted)
//   hooks; `executor` limits shape the one executor shared by every scope;
// - `fromLowerScopes`: whether a project/user file may tighten an executor limit (`tighten`: only
//   where a tighter value cannot make a higher-scope hook fail) or not at all (`ignored`).
// The policy level is hookwarden's defaults, then the policy files in order, then the caller's own
// limits (library `limits` option), which win over every file. A project or user value that would
// loosen what a higher level set is ignored with a warning.
import { availableParallelism } from 'node:os';
import type { Scope } from '../contract/types.js';
import { DEFAULTS, type IsolationLevel, type Limits } from './defaults.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { TenantLimits } from './tenant-limits.js';

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
  tenantRatePerSec: { direction: 'cap', reach: 'executor', fromLowerScopes: 'ignored' },
  tenantRateBurst: { direction: 'cap', reach: 'executor', fromLowerScopes: 'ignored' },
} as const satisfies Record<keyof Limits, LimitRule>);

export type LimitKey = keyof typeof LIMIT_RULES;

/**
 * A tenant's scheduling limits (`tenants.<id>.limits`) follow the same rule: a policy file sets
 * them, a project or user file may only tighten a value a higher scope set (an unset value is
 * unbounded, so any value tightens it). All apply to the tenant's whole lane share.
 */
export const TENANT_LIMIT_RULES = Object.freeze({
  maxConcurrent: 'cap',
  maxQueued: 'cap',
  weight: 'cap',
  cpuMsPerWindow: 'cap',
  windowMs: 'floor',
  maxAsyncQueued: 'cap',
  ratePerSec: 'cap',
  rateBurst: 'cap',
} as const satisfies Record<keyof TenantLimits, 'cap' | 'floor'>);

/** Merges one tenant's limits from its sources: policy ones in order, then lower ones tighten. */
export function mergeTenantLimits(
  parts: readonly { scope: Scope; limits: TenantLimits | undefined; sink: DiagnosticSink; path: string }[],
): TenantLimits {
  const out: Record<string, number> = {};
  const byRank = (scopes: readonly Scope[]) => parts.filter((p) => scopes.includes(p.scope));
  for (const p of byRank(['trusted', 'policy'])) Object.assign(out, definedOnly(p.limits));
  for (const p of [...byRank(['project']), ...byRank(['user'])]) {
    for (const [k, v] of Object.entries(definedOnly(p.limits))) {
      const current = out[k];
      const dir = TENANT_LIMIT_RULES[k as keyof TenantLimits];
      if (current === undefined || (dir === 'cap' ? v <= current : v >= current)) out[k] = v;
      else
        p.sink.warn(
          `${p.path}.${k}`,
          `ignored: ${v} would loosen the limit in force (${current}); a ${p.scope} file can only tighten a tenant's limits`,
        );
    }
  }
  return out as TenantLimits;
}

function definedOnly(limits: TenantLimits | undefined): Record<string, number> {
  return Object.fromEntries(Object.entries(limits ?? {}).filter(([, v]) => v !== undefined)) as Record<
    string,
    number
  >;
}

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
const LEVEL: Record<IsolationLevel, number> = { process: 0, contained: 1, namespace: 2 };
const LOWER = ['project', 'user'] as const;

/** jsThreads 0 means one per CPU: compare effective counts. */
const effective = (key: LimitKey, v: number) => (key === 'jsThreads' && v === 0 ? availableParallelism() : v);

function floorFor(min: Limits['minIsolation'], scope: Scope): IsolationLevel {
  if (min === undefined) return 'process';
  if (typeof min === 'string') return min;
  return scope === 'trusted' ? 'process' : (min[scope] ?? 'process');
}

/** Whether `next` is at least as tight as `current` for `key`. */
function tightens(key: LimitKey, current: unknown, next: unknown): boolean {
  if (key === 'minIsolation') return LEVEL[next as IsolationLevel] >= LEVEL[current as IsolationLevel];
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
  }
  // Each lower scope starts from the level above; floors written per scope at the policy level hold.
  const project: Mutable = {
    ...policyLevel,
    minIsolation: maxLevel(policyLevel.minIsolation, floorFor(executorMin, 'project')),
  };
  const user: Mutable = {
    ...project,
    minIsolation: maxLevel(project.minIsolation, floorFor(executorMin, 'user')),
  };
  const executor: Record<string, unknown> = { ...policyLevel, minIsolation: executorMin };
  const levels: Record<'project' | 'user', Mutable> = { project, user };
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
    for (const level of [policyLevel, project, user]) (level as Record<string, unknown>)[k] = executor[k];
  }
  const frozen = (l: Mutable) => Object.freeze({ ...l }) as ScopeLimits;
  const policy = frozen(policyLevel);
  return {
    byScope: Object.freeze({ trusted: policy, policy, project: frozen(project), user: frozen(user) }),
    executor: Object.freeze(executor) as unknown as Limits,
  };
}

function assignDefined(target: Record<string, unknown>, source: Partial<Limits>): void {
  for (const [k, v] of Object.entries(source)) if (v !== undefined) target[k] = v;
}

const maxLevel = (a: IsolationLevel, b: IsolationLevel): IsolationLevel => (LEVEL[b] > LEVEL[a] ? b : a);

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
  else {
    (levels[scope] as Record<string, unknown>)[key] = value;
    if (scope === 'project') tightenInto(levels.user, key, value);
  }
}

function applyIsolation(
  value: NonNullable<Limits['minIsolation']>,
  scope: 'project' | 'user',
  sink: DiagnosticSink,
  levels: Record<'project' | 'user', Mutable>,
): void {
  const perScope: [Scope, IsolationLevel][] =
    typeof value === 'string'
      ? (scope === 'project' ? ['project', 'user'] : ['user']).map((s) => [s as Scope, value])
      : (Object.entries(value).filter(([, v]) => v !== undefined) as [Scope, IsolationLevel][]);
  const warned = new Set<string>();
  const warn = (path: string, message: string) => {
    if (!warned.has(path)) sink.warn(path, message);
    warned.add(path);
  };
  for (const [target, level] of perScope) {
    const path = typeof value === 'string' ? 'limits.minIsolation' : `limits.minIsolation.${target}`;
    if (target === 'policy' || target === 'trusted' || (scope === 'user' && target === 'project')) {
      warn(
        path,
        `ignored: a ${scope} file cannot set the isolation of ${target} hooks (a lower scope applies to its own hooks and below)`,
      );
      continue;
    }
    const l = levels[target as 'project' | 'user'];
    if (LEVEL[level] < LEVEL[l.minIsolation]) {
      warn(
        path,
        `ignored: "${level}" would lower the isolation floor in force ("${l.minIsolation}"); a lower scope can only raise it`,
      );
      continue;
    }
    l.minIsolation = level;
    if (target === 'project') levels.user.minIsolation = maxLevel(levels.user.minIsolation, level);
  }
}
