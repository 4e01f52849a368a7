// The part of a hook spec that belongs to an http hook, checked at load with diagnostics naming the
// JSON path: its URL (admitted by `allowedHttpHookUrls`, else skipped with a warning that says how to
// allow it), its headers and the variables they may name.
import { headerVariables } from '../contract/header-template.js';
import { joinPath, renderValue } from '../contract/messages.js';
import { ENV_NAME } from '../contract/refused-env.js';
import { isSecretName, OWN_PREFIX, secretValueKind } from '../contract/secret-names.js';
import type { HttpHookSpec } from '../registry/hook-definition.js';
import { DEFAULTS } from './defaults.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { KindContext } from './hook-kind-specs.js';
import { HOOK_TYPE_FIX } from './hook-type-policy.js';
import type { RawHookSpec } from './schema.js';
import { admittingPattern, parseHookUrl } from './url-allow-list.js';

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
      `http hooks are sent only to URLs an operator allowed, and no "allowedHttpHookUrls" is set, so this hook does not run; ${ctx.hookTypes?.urlsFix ?? HOOK_TYPE_FIX.allowedHttpHookUrls}, got ${renderValue(spec.url)}`,
      true,
    );
    return undefined;
  }
  const admitted = admittingPattern(patterns, url.value);
  if (admitted === undefined) {
    const list = patterns.length === 0 ? 'the list is empty' : patterns.map((p) => p.source).join(', ');
    sink.warn(
      urlPath,
      `${url.value.href} matches no "allowedHttpHookUrls" pattern (${list}), so this hook does not run; ${ctx.hookTypes?.urlsFix ?? HOOK_TYPE_FIX.allowedHttpHookUrls}`,
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
