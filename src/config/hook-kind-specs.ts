// The parts of a hook spec that belong to http, prompt and agent hooks: checked at load, with
// diagnostics naming the JSON path. An http hook runs only if its URL is admitted by
// `allowedHttpHookUrls`, and a prompt/agent hook only if the platform registered an evaluator for
// its type; otherwise it is skipped with a warning that says how to allow it.
import type { OnError } from '../contract/decisions.js';
import { type Dialect, dialectTimeoutMs } from '../contract/dialects.js';
import type { EvaluatorType } from '../contract/evaluator.js';
import { headerVariables } from '../contract/header-template.js';
import { joinPath, renderValue } from '../contract/messages.js';
import { ENV_NAME } from '../contract/refused-env.js';
import { isSecretName, OWN_PREFIX, secretValueKind } from '../contract/secret-names.js';
import type { EvaluatorHookSpec, HttpHookSpec } from '../registry/hook-definition.js';
import { DEFAULTS } from './defaults.js';
import type { DiagnosticSink } from './diagnostics.js';
import { HOOK_TYPE_FIX, type HookTypePolicy } from './hook-type-policy.js';
import type { RawHookSpec } from './schema.js';
import { admittingPattern, parseHookUrl } from './url-allow-list.js';

export type HookKind = 'command' | 'js' | 'wasm' | 'http' | EvaluatorType;

export interface KindContext {
  readonly sink: DiagnosticSink;
  readonly hookTypes: HookTypePolicy | undefined;
  readonly claudeEvent: string | undefined;
}

/** Headers hookwarden sets itself, or that would change how the request is framed or routed. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);
const MAX_HEADERS = 64;
const MAX_HEADER_BYTES = 16 * 1024;

/** Default timeout (ms) of a hook kind; command and http hooks take their dialect's at `event`. */
export function defaultTimeoutMs(kind: HookKind, dialect: Dialect, event: string): number {
  if (kind === 'js') return DEFAULTS.js.timeoutMs;
  if (kind === 'wasm') return DEFAULTS.wasm.timeoutMs;
  if (kind === 'prompt') return DEFAULTS.evaluator.promptTimeoutMs;
  if (kind === 'agent') return DEFAULTS.evaluator.agentTimeoutMs;
  return dialectTimeoutMs(dialect, event);
}

const FIELDS: Record<'command' | 'js' | 'wasm' | 'http' | 'evaluator', readonly (keyof RawHookSpec)[]> = {
  command: [
    'command',
    'shell',
    'argv',
    'args',
    'env',
    'inheritEnv',
    'isolation',
    'writable',
    'runAs',
    'rlimits',
  ],
  js: ['source', 'code', 'memoryBytes'],
  wasm: ['fuel'],
  http: ['url', 'headers', 'allowedEnvVars'],
  evaluator: ['prompt', 'model', 'continueOnBlock'],
};
/** Fields that say what a hook runs: on a hook of another kind they are an error, the rest a warning. */
const DEFINING = new Set<string>(['command', 'argv', 'args', 'source', 'code', 'url', 'prompt']);

/**
 * Checks that a hook carries no field of another kind: a defining one (`url` on a command hook)
 * skips it, another (`env` on an http hook) is ignored with a warning. Returns false to skip.
 */
export function checkForeignFields(
  kind: HookKind,
  spec: RawHookSpec,
  path: string,
  sink: DiagnosticSink,
): boolean {
  const own = kind === 'prompt' || kind === 'agent' ? 'evaluator' : kind;
  // Command, JS and wasm hooks check each other's fields themselves (js-spec.ts, wasm-spec.ts).
  const others =
    own === 'command' || own === 'js' || own === 'wasm'
      ? (['http', 'evaluator', ...(own === 'wasm' ? [] : (['wasm'] as const))] as const)
      : (['command', 'js', 'wasm', 'http', 'evaluator'] as const).filter((k) => k !== own);
  let ok = true;
  for (const other of others) {
    for (const key of FIELDS[other]) {
      if (spec[key] === undefined) continue;
      const whose = other === 'evaluator' ? 'prompt and agent' : other;
      if (DEFINING.has(key)) {
        sink.error(
          joinPath(path, key),
          `"${key}" belongs to ${whose} hooks, not ${kind} hooks, got ${renderValue(spec[key])}`,
        );
        ok = false;
      } else sink.warn(joinPath(path, key), `"${key}" applies to ${whose} hooks only and is ignored`);
    }
  }
  return ok;
}

/** What the identity of an http or evaluator hook leaves out: where it was registered. */
export function kindIdentity(body: object): unknown {
  const {
    claudeEvent: _event,
    admittedBy: _by,
    ...rest
  } = body as { claudeEvent?: unknown; admittedBy?: unknown };
  return rest;
}

/** Events where Claude Code's onFailure "block" has no effect (exit 2 there means "keep working"). */
const NO_BLOCK_ON_FAILURE = new Set(['AfterTurn', 'AfterSubagent', 'TaskCompleted', 'TeammateIdle']);

/**
 * `onError`, or Claude Code's `onFailure` ("block" = "deny", except where it has no effect;
 * "continue" = "skip"); undefined when neither is written, null (after an error) when both are.
 */
export function writtenOnError(
  spec: RawHookSpec,
  path: string,
  sink: DiagnosticSink,
  event: string,
): OnError | undefined | null {
  if (spec.onFailure === undefined) return spec.onError;
  if (spec.onError !== undefined) {
    sink.error(
      joinPath(path, 'onFailure'),
      `give either onError or onFailure (Claude Code's spelling), not both, got ${renderValue(spec.onFailure)}`,
    );
    return null;
  }
  if (spec.onFailure === 'continue') return 'skip';
  return NO_BLOCK_ON_FAILURE.has(event) ? undefined : 'deny';
}

/** The evaluator part of a prompt or agent hook. */
export function evaluatorSpec(
  spec: RawHookSpec,
  path: string,
  ctx: KindContext,
): EvaluatorHookSpec | undefined {
  if (spec.prompt === undefined) {
    ctx.sink.error(path, `a ${spec.type} hook needs "prompt", got none`);
    return undefined;
  }
  if (spec.maxOutputBytes !== undefined)
    ctx.sink.warn(
      joinPath(path, 'maxOutputBytes'),
      `"maxOutputBytes" does not apply to ${spec.type} hooks and is ignored`,
    );
  return Object.freeze({
    prompt: spec.prompt,
    model: spec.model,
    continueOnBlock: spec.continueOnBlock,
    claudeEvent: ctx.claudeEvent,
  });
}

/** The message of a prompt/agent hook skipped for want of an evaluator. */
export function noEvaluatorMessage(type: EvaluatorType): string {
  return `hook type "${type}" needs an evaluator, and none is registered: the platform embedding hookwarden answers ${type} hooks with createExecutor({ evaluators: { ${type}: async (hook, input, { signal }) => output } }) (see docs/library.md); the command line runs none`;
}

/** The request part of an http hook; undefined (after saying why) when it must not run. */
export function httpSpec(spec: RawHookSpec, path: string, ctx: KindContext): HttpHookSpec | undefined {
  const { sink } = ctx;
  if (spec.url === undefined) {
    sink.error(path, 'an http hook needs "url", got none');
    return undefined;
  }
  const url = parseHookUrl(spec.url);
  const urlPath = joinPath(path, 'url');
  if (!url.ok) {
    sink.error(urlPath, `${url.message}, got ${renderValue(spec.url)}`);
    return undefined;
  }
  const patterns = ctx.hookTypes?.urls;
  if (patterns === undefined) {
    sink.warn(
      urlPath,
      `http hooks are sent only to URLs an operator allowed, and no "allowedHttpHookUrls" is set, so this hook does not run; ${HOOK_TYPE_FIX.allowedHttpHookUrls}, got ${renderValue(spec.url)}`,
      true,
    );
    return undefined;
  }
  const admitted = admittingPattern(patterns, url.value);
  if (admitted === undefined) {
    const list = patterns.length === 0 ? 'the list is empty' : patterns.map((p) => p.source).join(', ');
    sink.warn(
      urlPath,
      `${url.value.href} matches no "allowedHttpHookUrls" pattern (${list}), so this hook does not run; ${HOOK_TYPE_FIX.allowedHttpHookUrls}`,
      true,
    );
    return undefined;
  }
  const headers = httpHeaders(spec, path, sink);
  if (headers === undefined) return undefined;
  const env = httpEnvVars(spec, path, ctx);
  for (const [name, value] of Object.entries(headers)) {
    for (const v of headerVariables(value)) {
      if (!env.named.has(v))
        sink.warn(
          joinPath(joinPath(path, 'headers'), name),
          `the header uses $${v}, which "allowedEnvVars" does not list: it is sent empty (as Claude Code does)`,
        );
    }
  }
  let maxOutputBytes = spec.maxOutputBytes ?? DEFAULTS.http.maxOutputBytes;
  if (maxOutputBytes > DEFAULTS.http.maxOutputBytesCeiling) {
    sink.warn(
      joinPath(path, 'maxOutputBytes'),
      `an http hook's response is capped at ${DEFAULTS.http.maxOutputBytesCeiling} bytes; ${maxOutputBytes} was clamped`,
    );
    maxOutputBytes = DEFAULTS.http.maxOutputBytesCeiling;
  }
  return Object.freeze({
    url: url.value.href,
    admittedBy: admitted.source,
    headers: Object.freeze(headers),
    envVars: Object.freeze(env.vars),
    envVouched: env.vouched,
    maxOutputBytes,
    claudeEvent: ctx.claudeEvent,
  });
}

function httpHeaders(
  spec: RawHookSpec,
  path: string,
  sink: DiagnosticSink,
): Record<string, string> | undefined {
  const headers: Record<string, string> = Object.create(null);
  const entries = Object.entries(spec.headers ?? {});
  const bytes = entries.reduce((n, [k, v]) => n + k.length + Buffer.byteLength(v), 0);
  if (entries.length > MAX_HEADERS || bytes > MAX_HEADER_BYTES) {
    sink.error(
      joinPath(path, 'headers'),
      `at most ${MAX_HEADERS} headers of ${MAX_HEADER_BYTES} bytes in all, got ${entries.length} of ${bytes} bytes`,
    );
    return undefined;
  }
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('proxy-')) {
      sink.warn(
        joinPath(joinPath(path, 'headers'), name),
        `"${name}" is set by hookwarden (or would reroute the request) and is ignored`,
      );
      continue;
    }
    headers[lower] = value;
  }
  return headers;
}

/** The hook's `allowedEnvVars` within the policy's outer limit and the secret filter. */
function httpEnvVars(
  spec: RawHookSpec,
  path: string,
  ctx: KindContext,
): { vars: string[]; vouched: boolean; named: Set<string> } {
  const { sink } = ctx;
  const outer = ctx.hookTypes?.envVars;
  const vars: string[] = [];
  const named = new Set<string>();
  for (const [i, name] of (spec.allowedEnvVars ?? []).entries()) {
    const at = joinPath(joinPath(path, 'allowedEnvVars'), i);
    named.add(name);
    if (!ENV_NAME.test(name)) {
      sink.warn(
        at,
        `not a variable name (letters, digits, _, without "$"), ignored, got ${renderValue(name)}`,
      );
      continue;
    }
    if (name.toUpperCase().startsWith(OWN_PREFIX)) {
      sink.warn(at, `hookwarden's own variables are never sent; "${name}" is sent empty`);
      continue;
    }
    if (outer !== undefined) {
      // The operator's list: what it names is vouched for, whatever the name looks like.
      if (outer.includes(name)) vars.push(name);
      else sink.warn(at, `"${name}" is not in the policy's "httpHookAllowedEnvVars", so it is sent empty`);
      continue;
    }
    if (isSecretName(name)) {
      sink.warn(
        at,
        `"${name}" looks like a secret and is sent empty: a secret reaches an http hook only when an operator names it; ${HOOK_TYPE_FIX.httpHookAllowedEnvVars}`,
      );
      continue;
    }
    const kind = secretValueKind(process.env[name] ?? '');
    if (kind !== undefined)
      sink.warn(at, `the current value of "${name}" carries a credential (${kind}) and is sent empty`);
    vars.push(name);
  }
  return { vars, vouched: outer !== undefined, named };
}
