// The oracles' own rules, written from the documentation (docs/configuration.md "Limits",
// docs/security.md "Two scope orders"), never read from hookwarden's code: how strict a verdict is,
// and which limits and isolation floor are in force for a hook of each scope.
import type { HookRecord } from '../../src/contract/result.js';
import type {
  ConfigModel,
  FileModel,
  GroupModel,
  HookModel,
  LimitsModel,
  MinIsolation,
} from './gen/config.js';
import { EVENTS, type EventFacts, type EventName } from './gen/events.js';
import { flatten, ifAccepts, ifUnevaluable, matcherAccepts } from './gen/filters.js';

/**
 * Strictness of a verdict, for what a more trusted scope set: a deny, a defer or an ask must stand.
 * An allow and a passthrough rank alike: where the policy took no decision, any hook may approve
 * (as in Claude Code), and where it approved, a lower hook may still ask or deny.
 */
export const STRICTNESS: Readonly<Record<string, number>> = {
  allow: 0,
  passthrough: 0,
  ask: 2,
  defer: 3,
  deny: 4,
};

export type LowerScope = 'user' | 'project';
type Level = 'process' | 'contained' | 'namespace';
const RANK: Record<Level, number> = { process: 0, contained: 1, namespace: 2 };
const max = (a: Level, b: Level): Level => (RANK[a] >= RANK[b] ? a : b);

export interface ScopeCaps {
  readonly maxHookCalls: number;
  readonly maxInputBytes: number;
  readonly maxInputDepth: number;
  readonly maxDeclaredBudgetMs: number;
  readonly minIsolation: Level;
}

const DEFAULT_CAPS = {
  maxHookCalls: 128,
  maxInputBytes: 8 * 1024 * 1024,
  maxInputDepth: 64,
  maxDeclaredBudgetMs: 600_000,
};
type CapKey = keyof typeof DEFAULT_CAPS;
const CAP_KEYS = Object.keys(DEFAULT_CAPS) as CapKey[];

/** A policy-level per-scope floor for `scope` (it reaches every less-trusted scope). */
function policyFloor(min: MinIsolation | undefined, scope: 'policy' | LowerScope): Level {
  if (min === undefined) return 'process';
  if (typeof min === 'string') return min;
  const order: ('policy' | LowerScope)[] = ['policy', 'user', 'project'];
  let level: Level = 'process';
  for (const s of order.slice(0, order.indexOf(scope) + 1)) level = max(level, min[s] ?? 'process');
  return level;
}

/**
 * The limits in force for each scope: the policy level (defaults, then the policy files in order,
 * then the library's option), then each lower scope may only tighten, in the trust order
 * policy > user > project; a file reaches its own scope and every less-trusted one.
 */
export function scopeCaps(
  model: ConfigModel,
  library: LimitsModel = {},
): Record<'trusted' | 'policy' | LowerScope, ScopeCaps> {
  const policy: Record<string, unknown> = { ...DEFAULT_CAPS };
  let min: MinIsolation | undefined;
  for (const l of [...model.policy.map((f) => f.limits), library]) {
    if (l === undefined) continue;
    for (const k of CAP_KEYS) if (l[k] !== undefined) policy[k] = l[k];
    if (l.minIsolation !== undefined) min = l.minIsolation;
  }
  const p = { ...(policy as Record<CapKey, number>), minIsolation: policyFloor(min, 'policy') };
  const user = { ...p, minIsolation: max(p.minIsolation, policyFloor(min, 'user')) };
  const project = { ...user, minIsolation: max(user.minIsolation, policyFloor(min, 'project')) };
  const apply = (files: readonly FileModel[], from: LowerScope) => {
    for (const f of files) {
      const l = f.limits;
      if (l === undefined) continue;
      const targets = from === 'user' ? [user, project] : [project];
      for (const k of CAP_KEYS) {
        const v = l[k];
        if (v !== undefined) for (const t of targets) t[k] = Math.min(t[k], v);
      }
      const m = l.minIsolation;
      if (m === undefined) continue;
      if (typeof m === 'string') for (const t of targets) t.minIsolation = max(t.minIsolation, m);
      else {
        if (from === 'user' && m.user !== undefined)
          for (const t of [user, project]) t.minIsolation = max(t.minIsolation, m.user);
        if (m.project !== undefined) project.minIsolation = max(project.minIsolation, m.project);
      }
    }
  };
  apply(model.user, 'user');
  apply(model.project, 'project');
  return { trusted: p, policy: p, user, project };
}

/** Whether a record counts as a hook call (short-circuited hooks and hooks past the cap do not). */
const isCall = (r: HookRecord) =>
  !(r.outcome === 'not-run' && (r.error === undefined || r.error.code === 'max_hook_calls'));

/**
 * maxHookCalls by scope: a hook runs only while the calls before it are under its own scope's cap,
 * and one recorded past the cap had reached it. Returns the problem, if any.
 */
export function hookCallsProblem(
  records: readonly HookRecord[],
  caps: Record<string, ScopeCaps>,
): string | undefined {
  let calls = 0;
  for (const [i, r] of records.entries()) {
    const cap = caps[r.scope]!.maxHookCalls;
    if (r.error?.code === 'max_hook_calls') {
      if (calls < cap)
        return `record ${i} (${r.id}, ${r.scope}) was refused by maxHookCalls after ${calls} calls, under its scope's cap ${cap}`;
    } else if (isCall(r) && calls >= cap)
      return `record ${i} (${r.id}, ${r.scope}) ran after ${calls} calls, at or past its scope's cap ${cap}`;
    if (isCall(r)) calls++;
  }
  return undefined;
}

/** The total length of the strings a filter searches: under LIGHT, no search can run out of steps. */
const LIGHT_CHARS = 200;

/**
 * Whether a hook must run (true), must not (false), or either is right (undefined), by the documented
 * matching rules, JavaScript's RegExp deciding regexes: a definite miss is a miss only on a light
 * input (on a heavy one the step budget may run out, and in doubt the guard runs); an unevaluable
 * matcher or filter is a match (trust invariant 3).
 */
export function expectedRun(
  event: EventName,
  group: GroupModel,
  hook: HookModel,
  input: Record<string, unknown>,
): boolean | undefined {
  const facts: EventFacts = EVENTS[event];
  const parts: (boolean | undefined)[] = [];
  const toolName = typeof input.toolName === 'string' ? input.toolName : undefined;
  if (facts.toolScoped) parts.push(matcherAccepts(group.matcher, toolName));
  else if (facts.matchOn !== undefined) {
    const v = input[facts.matchOn];
    parts.push(matcherAccepts(group.matcher, typeof v === 'string' ? v : undefined));
  }
  if (facts.toolScoped)
    for (const f of [group.if, hook.if])
      if (f !== undefined) parts.push(ifAccepts(f, toolName, input.toolInput));
  const chars = flatten(input.toolInput).reduce((n, v) => n + v.length, 0);
  if (parts.includes(false)) return chars <= LIGHT_CHARS ? false : undefined;
  return parts.includes(undefined) ? undefined : true;
}

/** Whether a policy file fails closed at load: an unevaluable matcher or `if` where one is read. */
export function policyUnevaluable(model: ConfigModel): boolean {
  const read = (event: EventName, g: GroupModel) => {
    const facts: EventFacts = EVENTS[event];
    const matcherRead = facts.toolScoped || facts.matchOn !== undefined;
    if (matcherRead && g.matcher.kind === 'unevaluable') return true;
    if (!facts.toolScoped) return false;
    return [g.if, ...g.hooks.map((h) => h.if)].some((f) => f !== undefined && ifUnevaluable(f));
  };
  const decoyEvent: EventName = model.event === 'AfterTool' ? 'BeforeTool' : 'AfterTool';
  return model.policy.some(
    (f) => f.groups.some((g) => read(model.event, g)) || f.decoys.some((g) => read(decoyEvent, g)),
  );
}
