// One hook spec (any of the three accepted shapes) → a frozen HookDefinition, or a skip with
// diagnostics that name the JSON path and the value received.

import { DIALECT_RULES } from '../contract/dialects.js';
import { isObject, issueMessages, joinPath, renderValue } from '../contract/messages.js';
import type {
  CommandHookSpec,
  EvaluatorHookSpec,
  HookDefinition,
  HttpHookSpec,
  JsHookSpec,
  WasmHookSpec,
} from '../registry/hook-definition.js';
import { canonicalJson, deriveHookId } from '../registry/hook-id.js';
import { IfFilter } from '../registry/if-filter.js';
import { asyncSpecOf } from './async-fields.js';
import { commandIdentity, commandLabel, commandSpec } from './command-spec.js';
import { applyGrant } from './grant-gate.js';
import type { HookContext } from './hook-context.js';
import { deadlineFor } from './hook-deadline.js';
import {
  checkForeignFields,
  evaluatorSpec,
  type HookKind,
  kindIdentity,
  noEvaluatorMessage,
  writtenOnError,
} from './hook-kind-specs.js';
import { httpSpec } from './http-hook-spec.js';
import { jsSpec } from './js-spec.js';
import { hookSpecSchema, type RawHookSpec } from './schema.js';
import { didYouMean } from './suggest.js';
import { wasmSpec } from './wasm-spec.js';

const KNOWN_FIELDS = new Set(Object.keys(hookSpecSchema.shape));
const UNSUPPORTED_TYPES = new Set(['callback', 'mcp', 'mcp_tool']);

/** Normalizes one hook; returns undefined (after reporting why) when it must be skipped. */
export async function normalizeHook(
  raw: unknown,
  path: string,
  ctx: HookContext,
): Promise<HookDefinition | undefined> {
  const checked = checkedSpec(raw, path, ctx);
  if (checked === undefined) return undefined;
  const { spec, type } = checked;
  const body = await kindSpec(type, spec, path, ctx);
  if (body === undefined) return undefined;
  const asyncSpec = asyncSpecOf(spec, path, ctx.sink);
  const onError = onErrorOf(spec, path, ctx);
  if (onError === undefined) return undefined;
  const ifFilters = buildIfFilters(spec, path, ctx);
  const timing = deadlineFor(type, spec, path, ctx);
  const parts: HookParts = { type, body, onError, asyncSpec, timing, ifFilters };
  const def = definitionOf(parts, spec, path, ctx);
  // A project file's or a tenant's hook: what it asked beyond its grant runs at the strict value.
  return Object.freeze(applyGrant(def, spec, path, ctx));
}

/**
 * The entry's shape, in order: an object, a supported type, its unknown fields, the schema, a type
 * it names or implies, an evaluator for it, no other kind's fields, one timeout; undefined (after
 * reporting why) when it must be skipped.
 */
function checkedSpec(
  raw: unknown,
  path: string,
  ctx: HookContext,
): { spec: RawHookSpec; type: HookKind } | undefined {
  const { sink } = ctx;
  if (!isObject(raw)) {
    sink.error(
      path,
      `expected a hook object like {"type":"command","command":"..."}, got ${renderValue(raw)}`,
    );
    return undefined;
  }
  if (typeof raw.type === 'string' && UNSUPPORTED_TYPES.has(raw.type)) {
    sink.warn(
      path,
      `hook type "${raw.type}" is not supported (hookwarden runs "command", "js", "wasm", "http", "prompt" and "agent" hooks)`,
      true,
    );
    return undefined;
  }
  // Unknown fields first, so one run reports every problem of the entry.
  for (const key of Object.keys(raw)) {
    if (!KNOWN_FIELDS.has(key))
      sink.warn(joinPath(path, key), `unknown field "${key}" ignored${didYouMean(key, KNOWN_FIELDS)}`);
  }
  const parsed = hookSpecSchema.safeParse(raw);
  if (!parsed.success) {
    for (const m of issueMessages(parsed.error.issues, raw, path)) sink.error(m.path, m.message);
    return undefined;
  }
  const spec = parsed.data;
  const type = spec.type ?? inferType(spec);
  if (type === undefined) {
    sink.error(
      path,
      'a hook needs "command" or "argv" (command hook), "source" or "code" (JS hook), "source" with type "wasm" (wasm hook), or "url" (http hook), got none',
    );
    return undefined;
  }
  if ((type === 'prompt' || type === 'agent') && ctx.hookTypes?.evaluators.includes(type) !== true) {
    sink.warn(path, noEvaluatorMessage(type), true);
    return undefined;
  }
  if (!checkForeignFields(type, spec, path, sink)) return undefined;
  if (spec.timeout !== undefined && spec.timeoutMs !== undefined) {
    sink.error(
      joinPath(path, 'timeout'),
      `give either timeout (seconds) or timeoutMs, not both, got ${spec.timeout}`,
    );
    return undefined;
  }
  return { spec, type };
}

type OnError = NonNullable<ReturnType<typeof writtenOnError>>;

/** What the hook's failure does; undefined (after reporting why) when its onError is invalid. */
function onErrorOf(spec: RawHookSpec, path: string, ctx: HookContext): OnError | undefined {
  // Policy hooks fail closed unless they say otherwise (trust invariant 4); a policy hook that
  // writes "skip" is reported, since its failure lets the call through.
  const written = writtenOnError(spec, path, ctx.sink, ctx.event.name);
  if (written === null) return undefined;
  const onError = written ?? (ctx.scope === 'policy' || dialectFailsClosed(ctx) ? 'deny' : 'skip');
  if (ctx.scope === 'policy' && written === 'skip') {
    ctx.sink.warn(
      joinPath(path, 'onError'),
      'this policy hook fails open: if it crashes, times out or answers garbage, the call proceeds (policy hooks default to "deny")',
    );
  }
  return onError;
}

/** What normalizeHook has worked out of one entry, before it becomes a HookDefinition. */
interface HookParts {
  readonly type: HookKind;
  readonly body: NonNullable<Awaited<ReturnType<typeof kindSpec>>>;
  readonly onError: OnError;
  readonly asyncSpec: ReturnType<typeof asyncSpecOf>;
  readonly timing: ReturnType<typeof deadlineFor>;
  readonly ifFilters: IfFilter[];
}

/** What makes two hooks the same hook (deduplicated, and the source of an unnamed hook's id). */
function dedupKeyOf(p: HookParts, ctx: HookContext): string {
  const { type, body } = p;
  return canonicalJson({
    type,
    // The same command means something else in another dialect (a crash blocks in FreeCode's), and
    // a dialect reads http and evaluator answers too (a BeforeCompact veto).
    dialect: type === 'js' ? undefined : (ctx.dialect ?? 'hookwarden'),
    onError: p.onError,
    deadlineMs: p.timing.deadlineMs,
    requireOk: ctx.requireOk,
    ...(type === 'command'
      ? { command: commandIdentity(body as CommandHookSpec) }
      : type === 'wasm'
        ? { wasm: wasmIdentity(body as WasmHookSpec) }
        : { [type === 'prompt' || type === 'agent' ? 'evaluator' : type]: kindIdentity(body) }),
    // A pack's command may refer to its own directory (HOOK_PACK_DIR): the same text in two packs differs.
    pack: type === 'command' ? ctx.pack?.dir : undefined,
    async: p.asyncSpec,
    // A hook written for an agent reads that event's input: the same command under two events is two hooks.
    agentEvent: ctx.agentEvent,
  });
}

/** The HookDefinition of a checked entry (before its grant is applied). */
function definitionOf(p: HookParts, spec: RawHookSpec, path: string, ctx: HookContext): HookDefinition {
  const { type, body, timing, asyncSpec } = p;
  const { sink } = ctx;
  const dedupKey = dedupKeyOf(p, ctx);
  const label =
    type === 'command'
      ? commandLabel(body as CommandHookSpec)
      : type === 'http'
        ? new URL((body as HttpHookSpec).url).hostname
        : type;
  const common = {
    id: spec.name ?? deriveHookId(label, dedupKey),
    named: spec.name !== undefined,
    event: ctx.event.name,
    scope: ctx.scope,
    // JS hooks speak hookwarden's protocol whatever their file's dialect.
    dialect: type === 'js' ? 'hookwarden' : (ctx.dialect ?? 'hookwarden'),
    matcher: ctx.matcher,
    ifFilters: p.ifFilters,
    requireOk: ctx.requireOk,
    onError: p.onError,
    deadlineMs: timing.deadlineMs,
    timeoutMs: timing.timeoutMs,
    budgetMs: timing.budgetMs,
    once: spec.once === true,
    dedupKey,
    origin: `${sink.file}: ${path}`,
    location: { file: sink.file, path },
    ...(ctx.pack !== undefined ? { pack: ctx.pack } : {}),
    ...(asyncSpec !== undefined ? { async: asyncSpec } : {}),
    ...(ctx.agentEvent !== undefined ? { agentEvent: ctx.agentEvent } : {}),
    ...(ctx.alsoReadAs !== undefined && ctx.alsoReadAs.length > 0 ? { alsoReadAs: ctx.alsoReadAs } : {}),
  };
  return type === 'command'
    ? { ...common, type, command: body as CommandHookSpec }
    : type === 'js'
      ? { ...common, type, js: body as JsHookSpec }
      : type === 'wasm'
        ? { ...common, type, wasm: body as WasmHookSpec }
        : type === 'http'
          ? { ...common, type, http: body as HttpHookSpec }
          : { ...common, type, evaluator: body as EvaluatorHookSpec };
}

/** Whether the file's dialect makes the event's hooks fail closed by default (Copilot's preToolUse). */
function dialectFailsClosed(ctx: HookContext): boolean {
  // An ambiguous file: any of its readings that fails closed makes the hook fail closed.
  const dialects = [ctx.dialect ?? 'hookwarden', ...(ctx.alsoReadAs ?? []).map((r) => r.dialect)];
  return dialects.some((d) => DIALECT_RULES[d].failClosedEvents?.includes(ctx.event.name) === true);
}

/** What makes two wasm hooks the same: the module and the limits, not where it was read from. */
function wasmIdentity(w: WasmHookSpec): unknown {
  return { digest: w.digest, memoryBytes: w.memoryBytes, maxOutputBytes: w.maxOutputBytes, fuel: w.fuel };
}

function inferType(spec: RawHookSpec): HookKind | undefined {
  if (spec.command !== undefined || spec.argv !== undefined) return 'command';
  if (spec.source?.toLowerCase().endsWith('.wasm') === true && spec.code === undefined) return 'wasm';
  if (spec.source !== undefined || spec.code !== undefined) return 'js';
  if (spec.url !== undefined) return 'http';
  return undefined;
}

function kindSpec(type: HookKind, spec: RawHookSpec, path: string, ctx: HookContext) {
  const kind = { sink: ctx.sink, hookTypes: ctx.hookTypes, claudeEvent: ctx.claudeEvent };
  if (type === 'command') return commandSpec(spec, path, ctx);
  if (type === 'js') return jsSpec(spec, path, ctx);
  if (type === 'wasm') return wasmSpec(spec, path, ctx);
  if (type === 'http') return httpSpec(spec, path, kind);
  return evaluatorSpec(spec, path, kind);
}

function buildIfFilters(spec: RawHookSpec, path: string, ctx: HookContext): IfFilter[] {
  const sources: [string, string][] = [];
  if (ctx.groupIf !== undefined) sources.push([ctx.groupIf, ctx.groupIfPath]);
  if (spec.if !== undefined) sources.push([spec.if, joinPath(path, 'if')]);
  const filters: IfFilter[] = [];
  for (const [src, at] of sources) {
    if (!ctx.event.toolScoped) {
      ctx.sink.warn(at, `"if" is ignored: ${ctx.event.name} is not a tool event, got ${renderValue(src)}`);
      continue;
    }
    const filter = new IfFilter(src, { configDir: ctx.configDir });
    filters.push(filter);
    if (filter.unevaluable === undefined) continue;
    // Invariant 3: a filter that cannot be evaluated counts as a match, as an unevaluable matcher
    // does. In a policy file that is a policy failure (deny-capable events deny; its hook still runs
    // on the others); elsewhere the hook runs for every call the filter's tool part names.
    if (ctx.scope === 'policy')
      ctx.sink.error(
        at,
        `${filter.unevaluable}: a policy filter must be one hookwarden evaluates exactly (a glob, or a regex without lookaround and backreferences), got ${renderValue(src)}`,
        false,
      );
    else
      ctx.sink.warn(
        at,
        `${filter.unevaluable}; the hook runs for every call this filter's tool part accepts (when in doubt, run the guard), got ${renderValue(src)}`,
      );
  }
  return filters;
}
