// Generated configurations: hooks at every scope (trusted through register(), policy, user, project,
// a tenant), of every type (mostly JS; a sample of command, wasm and http hooks), with matchers and `if`
// filters (unevaluable ones included), `once`, `async`, `onError`, `limits` in every file, packs,
// the three dialects, and hostile fields in the lower files.
import fc from 'fast-check';
import { type Behaviour, behaviourArb } from './answers.js';
import { EVENTS, type EventName } from './events.js';
import { type IfModel, ifModel, type MatcherModel, matcherModel } from './filters.js';

type HookKind = 'js' | 'command' | 'wasm' | 'http' | 'trusted';
export type FileScope = 'policy' | 'user' | 'project' | 'tenant';
type Dialect = 'hookwarden' | 'claude-code' | 'freecode';

export interface HookModel {
  /** Unique in the case; what the hook reports seeing under. */
  readonly key: string;
  readonly kind: HookKind;
  /** The `name` written: none, its key, or a shared one (overrides, a policy hook's name). */
  readonly name: string | undefined;
  readonly behaviour: Behaviour;
  readonly once: boolean;
  readonly async: boolean;
  /** As written: `onError`, or Claude Code's `onFailure` spelling. */
  readonly onError: 'skip' | 'deny' | 'block' | 'continue' | undefined;
  readonly if: IfModel | undefined;
  /** Written timeout in ms (a Claude Code file writes it in seconds). */
  readonly timeoutMs: number | undefined;
  /** Command hooks: the isolation it asks for. */
  readonly isolation: 'process' | 'namespace' | undefined;
}

export interface GroupModel {
  readonly matcher: MatcherModel;
  readonly if: IfModel | undefined;
  readonly hooks: readonly HookModel[];
}

export type MinIsolation =
  | 'process'
  | 'contained'
  | 'namespace'
  | {
      readonly policy?: 'process' | 'namespace';
      readonly user?: 'process' | 'namespace';
      readonly project?: 'process' | 'namespace';
    };

export interface LimitsModel {
  readonly maxHookCalls?: number;
  readonly maxInputBytes?: number;
  readonly maxInputDepth?: number;
  readonly maxDeclaredBudgetMs?: number;
  readonly minIsolation?: MinIsolation;
}

/** Lower-scope fields that try to reach above their scope; each must be ignored or refused. */
type Hostile =
  | 'allowHttp'
  | 'policyHooks'
  | 'redefineGate'
  | 'parallelBeforeTool'
  | 'unknownKeys'
  | 'badEntry'
  | 'policyPackScope';

export interface FileModel {
  readonly dialect: Dialect;
  /** Writes `"dialect"`; otherwise the loader detects it (JS hooks force hookwarden's). */
  readonly declare: boolean;
  readonly groups: readonly GroupModel[];
  /** Groups on another event (never dispatched: noise the registry must keep apart). */
  readonly decoys: readonly GroupModel[];
  readonly limits: LimitsModel | undefined;
  /** Packs of the library pinned by this file (policy scope in a policy file, user elsewhere). */
  readonly packs: readonly string[];
  /** Policy files: the groups go under `policyHooks` rather than `hooks`. */
  readonly underPolicyHooks: boolean;
  readonly hostile: readonly Hostile[];
}

export interface GenOptions {
  readonly rewrites: boolean;
  readonly fails: boolean;
  /** Only answers that let a chain go on (nothing, allow, ask). */
  readonly gentle?: boolean;
  /** Every hook is named by its key: no overrides, records tell the hooks apart. */
  readonly uniqueNames?: boolean;
  /** Relative weights of hook kinds in files (trusted hooks are separate). */
  readonly kinds: {
    readonly js: number;
    readonly command: number;
    readonly http: number;
    readonly wasm?: number;
  };
  readonly once: boolean;
  readonly async: boolean;
  /** Unevaluable matchers and filters: nowhere, in user and project files only, or everywhere. */
  readonly unevaluable: 'none' | 'lower' | 'all';
  readonly hostile: boolean;
  /** One case in about 40 has a lower file with an invalid entry or a policy-scope pin (an error). */
  readonly errors: boolean;
  readonly limits: boolean;
  readonly packs: readonly string[];
  /** Two tenants' hook sets (`tenants.ta`, `tenants.tb` of the first policy file), for invariant 6. */
  readonly tenants?: boolean;
}

const SHARED_NAMES = ['lint', 'guard', 'P0', 'P1', 'T0'] as const;

/** True about one time in eight. */
const rarely = fc.oneof(
  { weight: 7, arbitrary: fc.constant(false) },
  { weight: 1, arbitrary: fc.constant(true) },
);

type Draft = Omit<HookModel, 'key' | 'name'> & {
  readonly naming: 'none' | 'key' | 'shared';
  readonly shared: string;
};

/** Whether unevaluable matchers and filters are generated for `scope`. */
const unevaluableIn = (o: GenOptions, scope: FileScope | 'trusted') =>
  o.unevaluable === 'all' || (o.unevaluable === 'lower' && scope !== 'policy' && scope !== 'trusted');

function draftArb(o: GenOptions, scope: FileScope | 'trusted'): fc.Arbitrary<Draft> {
  const unevaluable = unevaluableIn(o, scope);
  const kind: fc.Arbitrary<HookKind> =
    scope === 'trusted'
      ? fc.constant('trusted')
      : fc.oneof(
          { weight: o.kinds.js, arbitrary: fc.constant('js' as const) },
          ...(o.kinds.command > 0
            ? [{ weight: o.kinds.command, arbitrary: fc.constant('command' as const) }]
            : []),
          ...(o.kinds.http > 0 ? [{ weight: o.kinds.http, arbitrary: fc.constant('http' as const) }] : []),
          ...((o.kinds.wasm ?? 0) > 0
            ? [{ weight: o.kinds.wasm ?? 0, arbitrary: fc.constant('wasm' as const) }]
            : []),
        );
  return fc.record({
    kind,
    naming: fc.constantFrom('none' as const, 'key' as const, 'key' as const, 'shared' as const),
    shared: fc.constantFrom(...SHARED_NAMES),
    behaviour: behaviourArb(o),
    once: o.once ? rarely : fc.constant(false),
    async: o.async ? rarely : fc.constant(false),
    onError: fc.constantFrom(
      undefined,
      undefined,
      'skip' as const,
      'deny' as const,
      'block' as const,
      'continue' as const,
    ),
    if: fc
      .option(
        ifModel.filter((f) => unevaluable || f.pattern.kind !== 'unevaluable'),
        { freq: 4 },
      )
      .map((f) => f ?? undefined),
    timeoutMs: fc.constantFrom(undefined, undefined, undefined, 2000, 20_000),
    isolation: fc.constantFrom(undefined, undefined, 'process' as const, 'namespace' as const),
  });
}

const groupDraftArb = (o: GenOptions, scope: FileScope | 'trusted') =>
  fc.record({
    matcher: matcherModel.filter((m) => unevaluableIn(o, scope) || m.kind !== 'unevaluable'),
    if: fc
      .option(
        ifModel.filter((f) => unevaluableIn(o, scope) || f.pattern.kind !== 'unevaluable'),
        { freq: 6 },
      )
      .map((f) => f ?? undefined),
    hooks: fc.array(draftArb(o, scope), { minLength: 1, maxLength: 2 }),
  });

const minIsolation: fc.Arbitrary<MinIsolation> = fc.oneof(
  fc.constantFrom('process' as const, 'contained' as const, 'namespace' as const),
  fc.record(
    {
      policy: fc.constantFrom('process' as const, 'namespace' as const),
      user: fc.constantFrom('process' as const, 'namespace' as const),
      project: fc.constantFrom('process' as const, 'namespace' as const),
    },
    { requiredKeys: [] },
  ),
);

const limitsArb: fc.Arbitrary<LimitsModel> = fc.record(
  {
    maxHookCalls: fc.integer({ min: 1, max: 8 }),
    maxInputBytes: fc.constantFrom(300, 2_000, 100_000, 8 * 1024 * 1024),
    maxInputDepth: fc.integer({ min: 2, max: 64 }),
    maxDeclaredBudgetMs: fc.constantFrom(1_000, 10_000, 600_000),
    minIsolation,
  },
  { requiredKeys: [] },
);

/** A file's drafts: its groups for the case's event, decoys, limits, packs, hostile fields. */
function fileDraftArb(o: GenOptions, scope: FileScope) {
  const lower = scope !== 'policy';
  // A tenant's section has no file-level fields (hostile ones would make the policy file invalid).
  const hostile = o.hostile && scope !== 'tenant';
  return fc.record({
    dialect: fc.constantFrom(
      'hookwarden' as const,
      'hookwarden' as const,
      'claude-code' as const,
      'freecode' as const,
    ),
    declare: fc.boolean(),
    groups: fc.array(
      groupDraftArb(o, scope),
      scope === 'tenant' ? { minLength: 2, maxLength: 3 } : { maxLength: 2 },
    ),
    decoys: fc.array(groupDraftArb(o, scope), { maxLength: 1 }),
    limits: o.limits ? fc.option(limitsArb, { freq: 3 }).map((l) => l ?? undefined) : fc.constant(undefined),
    packs:
      o.packs.length > 0
        ? fc.oneof(
            { weight: 5, arbitrary: fc.constant([]) },
            { weight: 1, arbitrary: fc.subarray([...o.packs], { minLength: 1, maxLength: 2 }) },
          )
        : fc.constant([]),
    underPolicyHooks: scope === 'policy' ? fc.boolean() : fc.constant(false),
    hostile: fc
      .tuple(
        lower && hostile
          ? fc.subarray(
              ['allowHttp', 'policyHooks', 'redefineGate', 'parallelBeforeTool', 'unknownKeys'] as Hostile[],
              { maxLength: 2 },
            )
          : fc.constant([] as Hostile[]),
        lower && hostile && o.errors
          ? fc.oneof(
              { weight: 60, arbitrary: fc.constant([] as Hostile[]) },
              { weight: 1, arbitrary: fc.constantFrom<Hostile[]>(['badEntry'], ['policyPackScope']) },
            )
          : fc.constant([] as Hostile[]),
      )
      .map(([a, b]) => [...a, ...b]),
  });
}

type ArbValue<A> = A extends fc.Arbitrary<infer T> ? T : never;
type FileDraft = ArbValue<ReturnType<typeof fileDraftArb>>;

/** Keys are assigned after generation, in order, so that shrinking keeps them stable and unique. */
class KeyMaker {
  #n = 0;
  constructor(readonly unique: boolean) {}
  hook(prefix: string, d: Draft): HookModel {
    const key = `${prefix}${this.#n++}`;
    const { naming, shared, ...rest } = d;
    // Policy and trusted hooks always carry their key as name: the oracles find their records by it.
    const named = this.unique || prefix === 'p' || prefix === 't' ? 'key' : naming;
    return { ...rest, key, name: named === 'none' ? undefined : named === 'key' ? key : shared };
  }
  group(prefix: string, g: { matcher: MatcherModel; if: IfModel | undefined; hooks: Draft[] }): GroupModel {
    return { matcher: g.matcher, if: g.if, hooks: g.hooks.map((d) => this.hook(prefix, d)) };
  }
  file(prefix: string, f: FileDraft, event: EventName): FileModel {
    // Events without a Claude Code name are written in hookwarden's files only.
    const dialect = hasClaudeName(event) ? f.dialect : 'hookwarden';
    const shape = dialect === 'freecode' ? flatGroup : (g: GroupModel) => g;
    return {
      ...f,
      dialect,
      groups: f.groups.map((g) => shape(this.group(prefix, g))),
      decoys: f.decoys.map((g) => shape(this.group(`${prefix}d`, g))),
    };
  }
}

/** A tenant's scheduling limits (they must never change a verdict). */
interface TenantLimitsModel {
  readonly maxConcurrent?: number;
  readonly weight?: number;
}

export interface TenantModel {
  readonly id: string;
  readonly file: FileModel;
  readonly limits: TenantLimitsModel;
}

const tenantLimitsArb: fc.Arbitrary<TenantLimitsModel> = fc.record(
  { maxConcurrent: fc.integer({ min: 1, max: 2 }), weight: fc.integer({ min: 1, max: 3 }) },
  { requiredKeys: [] },
);

export interface ConfigModel {
  readonly event: EventName;
  /** The tenants declared in the first policy file (none unless GenOptions.tenants). */
  readonly tenants?: readonly TenantModel[];
  readonly trusted: readonly GroupModel[];
  readonly policy: readonly FileModel[];
  readonly user: readonly FileModel[];
  readonly project: readonly FileModel[];
}

/** The configuration of one case, for `event`. */
export function configArb(event: EventName, o: GenOptions): fc.Arbitrary<ConfigModel> {
  return fc
    .record({
      trusted: fc.array(groupDraftArb(o, 'trusted'), { maxLength: 1 }),
      policy: fc.array(fileDraftArb(o, 'policy'), { minLength: 1, maxLength: 2 }),
      user: fc.array(fileDraftArb(o, 'user'), { maxLength: 1 }),
      project: fc.array(fileDraftArb(o, 'project'), { maxLength: 2 }),
      tenants: o.tenants
        ? fc.tuple(
            fc.tuple(fileDraftArb(o, 'tenant'), tenantLimitsArb),
            fc.tuple(fileDraftArb(o, 'tenant'), tenantLimitsArb),
          )
        : fc.constant(undefined),
    })
    .map((d) => {
      const keys = new KeyMaker(o.uniqueNames === true);
      const tenant = (id: string, [f, limits]: [FileDraft, TenantLimitsModel]): TenantModel => ({
        id,
        // A tenant's hooks are written in hookwarden's form; its limits are the scheduler's.
        file: {
          ...keys.file(id === 'ta' ? 'a' : 'b', { ...f, dialect: 'hookwarden' }, event),
          limits: undefined,
        },
        limits,
      });
      return {
        event,
        ...(d.tenants === undefined
          ? {}
          : { tenants: [tenant('ta', d.tenants[0]), tenant('tb', d.tenants[1])] }),
        trusted: d.trusted.map((g) => trustedGroup(keys.group('t', g))),
        policy: d.policy.map((f) => keys.file('p', f, event)),
        user: d.user.map((f) => keys.file('u', f, event)),
        project: d.project.map((f) => keys.file('j', f, event)),
      };
    });
}

/**
 * register() takes one matcher and one `if`, `onError` only as skip/deny, and no once/async: the
 * model says what is registered.
 */
function trustedGroup(g: GroupModel): GroupModel {
  return {
    matcher: g.matcher,
    if: undefined,
    hooks: g.hooks.map((h) => ({
      ...h,
      if: h.if ?? g.if,
      once: false,
      async: false,
      onError: h.onError === 'block' ? 'deny' : h.onError === 'continue' ? 'skip' : h.onError,
      isolation: undefined,
    })),
  };
}

/** In FreeCode's flat form every hook carries its group's matcher, and only one `if`. */
function flatGroup(g: GroupModel): GroupModel {
  return { matcher: g.matcher, if: undefined, hooks: g.hooks.map((h) => ({ ...h, if: h.if ?? g.if })) };
}

/** Whether the event can be written in a Claude Code or FreeCode file. */
const hasClaudeName = (event: EventName): boolean => 'cc' in EVENTS[event];
