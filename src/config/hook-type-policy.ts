// What decides whether http, prompt and agent hooks run at all: the URLs http hooks may be sent to
// (`allowedHttpHookUrls`), the variables their headers may name (`httpHookAllowedEnvVars`), and the
// evaluators the platform registered. Both keys are Claude Code's; here they come only from policy
// files and the caller's options (trust invariant 1: a project or user file cannot widen what a
// hook may reach), merged as Claude Code merges them: the lists are joined.
import type { EvaluatorType } from '../contract/evaluator.js';
import { joinPath, renderValue } from '../contract/messages.js';
import { ENV_NAME } from '../contract/refused-env.js';
import type { Scope } from '../contract/types.js';
import type { DiagnosticSink } from './diagnostics.js';
import { parseUrlPattern, type UrlPattern } from './url-allow-list.js';

/** Policy-only top-level keys of a config file. */
export const HOOK_TYPE_KEYS = ['allowedHttpHookUrls', 'httpHookAllowedEnvVars'] as const;

/** The caller's part (createExecutor options, CLI flags), already validated. */
export interface HookTypeOptions {
  readonly allowedHttpHookUrls?: readonly string[] | undefined;
  readonly httpHookAllowedEnvVars?: readonly string[] | undefined;
  readonly evaluators?: readonly EvaluatorType[] | undefined;
}

/** The resolved policy a load applies to every hook (plain data: compared on reload). */
export interface HookTypePolicy {
  /** Undefined: set nowhere, so no http hook runs. Empty: set, and admits nothing. */
  readonly urls: readonly UrlPattern[] | undefined;
  /** Undefined: no outer limit (secret-looking names are still never filled). */
  readonly envVars: readonly string[] | undefined;
  readonly evaluators: readonly EvaluatorType[];
  /** How to admit a URL, where `urls` is not the top-level list (a tenant's grant). */
  readonly urlsFix?: string;
}

/** Where each key may be set, for messages. */
export const HOOK_TYPE_FIX = {
  allowedHttpHookUrls:
    'set "allowedHttpHookUrls" in a policy file (--policy), the allowedHttpHookUrls option of createExecutor, or --allow-http-url on the command line',
  httpHookAllowedEnvVars:
    'set "httpHookAllowedEnvVars" in a policy file (--policy) or the httpHookAllowedEnvVars option of createExecutor',
} as const;

/** The problem with one list of the caller's options, or undefined (used by option validation). */
export function hookTypeOptionProblem(
  key: (typeof HOOK_TYPE_KEYS)[number],
  value: unknown,
): string | undefined {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    return `${key}: expected an array of strings, got ${renderValue(value)}`;
  for (const [i, v] of (value as string[]).entries()) {
    const problem = entryProblem(key, v);
    if (problem !== undefined) return `${key}[${i}]: ${problem}, got ${renderValue(v)}`;
  }
  return undefined;
}

function entryProblem(key: (typeof HOOK_TYPE_KEYS)[number], v: string): string | undefined {
  if (key === 'httpHookAllowedEnvVars')
    return ENV_NAME.test(v) ? undefined : 'expected a variable name (letters, digits, _), without "$"';
  const parsed = parseUrlPattern(v);
  return parsed.ok ? undefined : parsed.message;
}

interface Source {
  readonly scope: Scope;
  readonly sink: DiagnosticSink;
  readonly value: Record<string, unknown> | undefined;
}

/** Reads the keys from the policy sources (a lower scope's are ignored with a warning), then the options. */
export function collectHookTypePolicy(
  sources: readonly Source[],
  options: HookTypeOptions | undefined,
): HookTypePolicy {
  let urls: UrlPattern[] | undefined;
  let envVars: string[] | undefined;
  for (const src of sources) {
    for (const key of HOOK_TYPE_KEYS) {
      const list = src.value?.[key];
      if (list === undefined) continue;
      if (src.scope !== 'policy') {
        src.sink.warn(
          key,
          `ignored: only policy can decide what http hooks may reach, so a ${src.scope} file's "${key}" has no effect; ${HOOK_TYPE_FIX[key]}`,
        );
        continue;
      }
      if (!Array.isArray(list)) {
        src.sink.error(key, `expected an array of strings, got ${renderValue(list)}`);
        continue;
      }
      if (key === 'allowedHttpHookUrls') urls ??= [];
      else envVars ??= [];
      for (const [i, v] of list.entries()) {
        const at = joinPath(key, i);
        if (typeof v !== 'string') {
          src.sink.error(at, `expected a string, got ${renderValue(v)}`);
          continue;
        }
        if (key === 'httpHookAllowedEnvVars') {
          const problem = entryProblem(key, v);
          if (problem === undefined) envVars!.push(v);
          else src.sink.error(at, `${problem}, got ${renderValue(v)}`);
          continue;
        }
        const parsed = parseUrlPattern(v);
        if (!parsed.ok) {
          src.sink.error(at, `${parsed.message}, got ${renderValue(v)}`);
          continue;
        }
        if (parsed.warning !== undefined) src.sink.warn(at, parsed.warning);
        urls!.push(parsed.value);
      }
    }
  }
  if (options?.allowedHttpHookUrls !== undefined) {
    urls ??= [];
    // Validated with the options: every entry parses.
    for (const v of options.allowedHttpHookUrls) {
      const parsed = parseUrlPattern(v);
      if (parsed.ok) urls.push(parsed.value);
    }
  }
  if (options?.httpHookAllowedEnvVars !== undefined)
    envVars = [...(envVars ?? []), ...options.httpHookAllowedEnvVars];
  return Object.freeze({
    urls: urls === undefined ? undefined : Object.freeze(urls),
    envVars: envVars === undefined ? undefined : Object.freeze([...new Set(envVars)]),
    evaluators: Object.freeze([...(options?.evaluators ?? [])]),
  });
}
