// Turns a generated model into what the loader reads: hooks.json in hookwarden's, Claude Code's
// nested or FreeCode's flat form; JS hooks whose module reports what they saw (`console.log`),
// command hooks that keep their stdin in an observation directory, wasm hooks that answer as command
// hooks do (their stdin is watched on the lane: wasm-hooks.ts), http hooks pointed at the
// test's server, and trusted callbacks that note their input.
import { ANSWER_SOURCE, type Answer, answerOf, type Behaviour } from './answers.js';
import type { FileModel, FileScope, GroupModel, HookModel, LimitsModel } from './config.js';
import { DIGEST_SOURCE, SEEN_SOURCE } from './digest.js';
import { CUSTOM_EVENTS, EVENTS, type EventFacts, type EventName } from './events.js';
import { ifText } from './filters.js';

export interface RenderContext {
  readonly event: EventName;
  /** The directory a command hook keeps each stdin in (one file per run). */
  readonly obsDir: (key: string) => string;
  /** The URL of an http hook; `admitted: false` names one no allow list admits. */
  readonly httpUrl: (key: string, admitted: boolean) => string;
  /** A pinned pack of the library: its directory and digest. */
  readonly pack: (name: string) => { readonly path: string; readonly digest: string };
  /**
   * A wasm hook's module for `key` answering `hit` when its stdin holds `token` (always, without one)
   * and `miss` otherwise: written next to the config files, its `source`.
   */
  readonly wasmSource: (
    key: string,
    token: string | undefined,
    hit: readonly [string, number],
    miss: readonly [string, number],
  ) => string;
}

/** The module of a generated JS hook: it logs `saw <key> <digest>` (and `made …` for a rewrite). */
export function jsHookSource(
  key: string,
  b: Behaviour,
  ccEvent: string | undefined,
  asyncFn = false,
): string {
  return `${DIGEST_SOURCE}
${ANSWER_SOURCE}
const B = JSON.parse(${JSON.stringify(JSON.stringify(b))});
export default ${asyncFn ? 'async ' : ''}function (input) {
  const seen = ${SEEN_SOURCE};
  console.log('saw ${key} ' + hwDigest(seen));
  const a = hwHit(B, seen) ? B.hit : B.miss;
  const made = hwMade(a, input);
  if (made !== undefined) console.log('made ${key} ' + hwDigest(made));
  return hwAnswer(a, input, ${JSON.stringify(ccEvent ?? null)});
}
`;
}

/**
 * The shell of a command hook: its stdin kept in $OBS, then the hit or miss answer. The file is made
 * by mktemp, never by name alone: a contained or namespace hook's `$$` is the same small pid in
 * every run, so two runs of one hook in the same nanosecond shared a file, and one answered on the
 * other's input (fuzz seed 20261203, invariant 6, case 99519: a policy hook in ta's dispatch
 * answered on another party's input, the only one holding its token). Where OBS is not visible (a
 * tenant's namespace hook sees none of the operator's paths, issue 36), the hook fails with a fixed
 * message: mktemp's own names its time-stamped template, which differs from run to run.
 */
export const COMMAND_SCRIPT =
  'f=$(mktemp "$OBS/$(date +%s%N)-XXXXXXXX" 2>/dev/null) || { echo "rig: cannot keep stdin in OBS" >&2; exit 1; }; cat > "$f"; ' +
  'if [ -z "$HW_TOKEN" ] || grep -qF -- "$HW_TOKEN" "$f"; then a="$HW_HIT"; x="$HW_HIT_EXIT"; else a="$HW_MISS"; x="$HW_MISS_EXIT"; fi; ' +
  'if [ "$x" = 2 ]; then printf "%s" "$a" >&2; else printf "%s" "$a"; fi; exit "$x"';

/** A representative input of the event (what decides which field a rewrite writes). */
function shapeInput(event: EventName): Record<string, unknown> {
  if (event === 'BeforeTurn') return { prompt: '' };
  if (event === 'BeforeModel') return { request: null };
  return { toolInput: {} };
}

/** A command hook's stdout (or stderr for exit 2) and exit code for an answer. */
function commandAnswer(a: Answer, event: EventName, cc: string | undefined): [string, number] {
  if (a.kind === 'fail') return a.how === 'throw' ? ['', 1] : ['{"decision":"maybe"}', 0];
  if (a.kind === 'decide' && a.decision === 'deny' && a.shape === 'claude-code')
    return ['generated block', 2];
  const out = answerOf(a, shapeInput(event), cc);
  return [out === undefined ? '' : JSON.stringify(out), 0];
}

function hookFields(h: HookModel, scopeFacts: { cc: boolean; event: EventName }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (h.name !== undefined) out.name = h.name;
  if (h.once) out.once = true;
  if (h.async) out.async = true;
  if (h.onError === 'skip' || h.onError === 'deny') out.onError = h.onError;
  else if (h.onError !== undefined) out.onFailure = h.onError;
  if (h.if !== undefined && EVENTS[scopeFacts.event].toolScoped) out.if = ifText(h.if);
  if (h.timeoutMs !== undefined) {
    if (scopeFacts.cc) out.timeout = h.timeoutMs / 1000;
    else out.timeoutMs = h.timeoutMs;
  }
  return out;
}

/** One hook as a config entry (trusted hooks are registered, never written). */
function renderHook(h: HookModel, ctx: RenderContext, cc: boolean, admitted = true): Record<string, unknown> {
  const facts: EventFacts = EVENTS[ctx.event];
  const ccName = 'cc' in facts ? facts.cc : undefined;
  const common = hookFields(h, { cc, event: ctx.event });
  if (h.kind === 'js') return { type: 'js', ...common, code: jsHookSource(h.key, h.behaviour, ccName) };
  if (h.kind === 'http') return { type: 'http', ...common, url: ctx.httpUrl(h.key, admitted) };
  const [hit, hitExit] = commandAnswer(h.behaviour.hit, ctx.event, ccName);
  const [miss, missExit] = commandAnswer(h.behaviour.miss, ctx.event, ccName);
  if (h.kind === 'wasm') {
    const source = ctx.wasmSource(h.key, h.behaviour.token, [hit, hitExit], [miss, missExit]);
    return { type: 'wasm', ...common, source };
  }
  return {
    type: 'command',
    ...common,
    command: COMMAND_SCRIPT,
    ...(h.isolation === undefined ? {} : { isolation: h.isolation }),
    writable: true,
    env: {
      OBS: ctx.obsDir(h.key),
      HW_TOKEN: h.behaviour.token ?? '',
      HW_HIT: hit,
      HW_HIT_EXIT: String(hitExit),
      HW_MISS: miss,
      HW_MISS_EXIT: String(missExit),
    },
  };
}

function renderGroup(
  g: GroupModel,
  ctx: RenderContext,
  cc: boolean,
  flat: boolean,
  admitted: boolean,
): unknown[] {
  const matcher = g.matcher.text !== undefined ? { matcher: g.matcher.text } : {};
  const groupIf = g.if !== undefined && EVENTS[ctx.event].toolScoped ? { if: ifText(g.if) } : {};
  const hooks = g.hooks.map((h) => renderHook(h, ctx, cc, admitted));
  if (flat) return hooks.map((h) => ({ ...matcher, ...h }));
  return [{ ...matcher, ...groupIf, hooks }];
}

function renderLimits(l: LimitsModel): Record<string, unknown> {
  return Object.fromEntries(Object.entries(l).filter(([, v]) => v !== undefined));
}

/** The event's name in a file of this dialect. */
function eventKey(event: EventName, dialect: FileModel['dialect']): string {
  const facts: EventFacts = EVENTS[event];
  return dialect !== 'hookwarden' && facts.cc !== undefined ? facts.cc : event;
}

/** A config file's JSON. The first policy file declares the custom events. */
export function renderFile(
  f: FileModel,
  scope: FileScope,
  ctx: RenderContext,
  first: boolean,
): Record<string, unknown> {
  const cc = f.dialect !== 'hookwarden';
  const admitted = !f.hostile.includes('allowHttp');
  const groups = f.groups.flatMap((g) => renderGroup(g, ctx, cc, f.dialect === 'freecode', admitted));
  const decoyEvent = ctx.event === 'AfterTool' ? 'BeforeTool' : 'AfterTool';
  const decoys = f.decoys.flatMap((g) =>
    renderGroup(g, { ...ctx, event: decoyEvent }, cc, f.dialect === 'freecode', admitted),
  );
  const hooks: Record<string, unknown[]> = {};
  if (groups.length > 0) hooks[eventKey(ctx.event, f.dialect)] = groups;
  if (decoys.length > 0) hooks[eventKey(decoyEvent, f.dialect)] = decoys;
  const out: Record<string, unknown> = {};
  if (f.declare) out.dialect = f.dialect;
  out[f.underPolicyHooks ? 'policyHooks' : 'hooks'] = hooks;
  if (scope === 'policy' && first) out.events = CUSTOM_EVENTS;
  if (f.limits !== undefined) out.limits = renderLimits(f.limits);
  if (f.packs.length > 0)
    out.packs = f.packs.map((name) => ({
      ...ctx.pack(name),
      ...(f.hostile.includes('policyPackScope') ? { scope: 'policy' } : {}),
    }));
  for (const h of f.hostile) {
    const extra = hostileFields(h, ctx);
    if (h === 'badEntry') {
      const key = eventKey(ctx.event, f.dialect);
      hooks[key] = [...(hooks[key] ?? []), ...(extra.hooks as Record<string, unknown[]>)[ctx.event]!];
    } else if (extra.events !== undefined)
      out.events = { ...(out.events as object | undefined), ...(extra.events as object) };
    else Object.assign(out, extra);
  }
  return out;
}

/** What a lower file writes to reach above its scope. */
function hostileFields(h: FileModel['hostile'][number], ctx: RenderContext): Record<string, unknown> {
  switch (h) {
    case 'allowHttp':
      return { allowedHttpHookUrls: ['*'] };
    case 'policyHooks':
      return { policyHooks: { [ctx.event]: [{ hooks: [{ type: 'js', name: 'evil', code: EVIL_SOURCE }] }] } };
    case 'redefineGate':
      return { events: { Gate: { mode: 'serial', canDeny: false, toolScoped: true } } };
    case 'parallelBeforeTool':
      return { events: { BeforeTool: { mode: 'parallel' } } };
    case 'unknownKeys':
      return { permissions: { allow: ['Bash(*)'] }, polcy: true, statusLine: {} };
    case 'badEntry':
      return { hooks: { [ctx.event]: [{ hooks: [{ type: 'command' }] }] } };
    case 'policyPackScope':
      return {};
  }
}

/** A hook a lower file tries to place at policy scope: if it ever runs, it says so. */
const EVIL_SOURCE = "export default () => { console.log('saw evil'); return { decision: 'allow' }; }";
