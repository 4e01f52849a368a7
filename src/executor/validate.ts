// Validation without running anything: what `hookwarden validate` reports.

import type { Diagnostic } from '../config/diagnostics.js';
import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';
import type { PackStatus } from '../config/pin-loader.js';
import { JsLane } from '../pool/js-lane.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import { answerProblem } from './answer-check.js';
import { commandProblem } from './command-check.js';
import { loadResolvedConfig } from './load-options.js';
import type { ExecutorOptions } from './options.js';
import { resolveOptions } from './options.js';

export interface ValidationReport {
  /** Every problem, with file, JSON path and the value received. */
  readonly diagnostics: readonly Diagnostic[];
  /** Number of hooks that would run (all events, all scopes). */
  readonly hookCount: number;
  readonly errorCount: number;
  readonly warningCount: number;
  /** Policy failures: deny-capable events would deny (every tenant's too). */
  readonly policyFailures: readonly string[];
  /** Tenants whose own section has a problem: each fails closed alone (its deny-capable events deny). */
  readonly tenantFailures: Readonly<Record<string, readonly string[]>>;
  /** Every tenant the configuration declares. */
  readonly tenants: readonly string[];
  /** Every pinned pack, verified: digest, signing key, or why it is refused. */
  readonly packs: readonly PackStatus[];
  /**
   * Every http hook that would run: where it is declared, the URL it POSTs to and the
   * `allowedHttpHookUrls` pattern that admits it (one that no pattern admits is a warning instead).
   */
  readonly httpHooks: readonly HttpHookReport[];
}

/** An http hook as `validate` reports it. */
export interface HttpHookReport {
  readonly file: string;
  readonly path: string;
  readonly event: string;
  readonly url: string;
  readonly allowedBy: string;
}

/** What validateConfig() takes: the executor options that decide what loads. */
export type ValidateOptions = Pick<
  ExecutorOptions,
  | 'config'
  | 'policy'
  | 'root'
  | 'limits'
  | 'strict'
  | 'remotePacks'
  | 'allowedHttpHookUrls'
  | 'httpHookAllowedEnvVars'
  | 'evaluators'
>;

const VALIDATE_OPTION_KEYS = optionKeys<ValidateOptions>()([
  'config',
  'policy',
  'root',
  'limits',
  'strict',
  'remotePacks',
  'allowedHttpHookUrls',
  'httpHookAllowedEnvVars',
  'evaluators',
]);

export async function validateConfig(options: ValidateOptions): Promise<ValidationReport> {
  refuseUnknownOptions(options, VALIDATE_OPTION_KEYS, 'validateConfig');
  const resolved = resolveOptions(options);
  // Every problem is reported, not only the first fatal one: validation never stops at `strict`.
  const loaded = await loadResolvedConfig({ ...resolved, strict: false });
  // A refused user-scope pack only warns at run time (its hooks are skipped); validating, it is an error.
  const refusedUserPins = new Set(
    loaded.packs
      .filter((p) => p.refusal !== undefined && p.scope === 'user')
      .map((p) => `${p.file}\0${p.path}`),
  );
  const diagnostics = loaded.diagnostics.map((d) =>
    d.severity === 'warning' && d.skipped && refusedUserPins.has(`${d.file}\0${d.path}`)
      ? { ...d, severity: 'error' as const }
      : d,
  );
  const hooks = [...loaded.hooks, ...[...loaded.tenants.values()].flatMap((t) => t.hooks)];
  const unique = [...new Set(hooks)];
  for (const hook of unique) {
    for (const problem of [commandProblem(hook, resolved.root), answerProblem(hook, resolved.root)])
      if (problem !== undefined)
        diagnostics.push({ ...problem, file: hook.location.file, path: hook.location.path });
  }
  if (unique.length === 0 && loaded.packs.length === 0) {
    diagnostics.push({
      severity: 'error',
      file: [...resolved.policy, ...resolved.config]
        .map((s) => (s.kind === 'file' ? s.path : s.label))
        .join(', '),
      path: '',
      message:
        'no hook loaded: a config needs a "hooks" object mapping event names to hook groups, e.g. {"hooks": {"BeforeTool": [{"hooks": [{"command": "./guard.sh"}]}]}}',
      skipped: false,
    });
  }
  diagnostics.push(...(await compileJsHooks(unique, loaded.limits)));
  return {
    diagnostics,
    hookCount: unique.length,
    errorCount: diagnostics.filter((d) => d.severity === 'error').length,
    warningCount: diagnostics.filter((d) => d.severity === 'warning').length,
    policyFailures: loaded.policyFailures,
    tenantFailures: Object.fromEntries(
      [...loaded.tenants].filter(([, t]) => t.problems.length > 0).map(([id, t]) => [id, t.problems]),
    ),
    tenants: [...loaded.tenants.keys()].sort(),
    packs: loaded.packs,
    httpHooks: unique.flatMap((h) =>
      h.type === 'http'
        ? [{ ...h.location, event: h.event, url: h.http.url, allowedBy: h.http.admittedBy }]
        : [],
    ),
  };
}

/**
 * JS hooks are compiled (never run) so syntax errors show with their file and line: on a QuickJS
 * lane worker, under each hook's deadline and the lane's stack limit, as a call would be. A source
 * that reaches a limit gives a diagnostic naming the hook and the limit; the others still show.
 */
async function compileJsHooks(
  hooks: readonly HookDefinition[],
  limits: { readonly jsHeapCeilingBytes: number; readonly jsBackstopGraceMs: number },
): Promise<Diagnostic[]> {
  const js = hooks.filter((h) => h.type === 'js');
  if (js.length === 0) return [];
  const closing = new AbortController();
  const lane = new JsLane(
    { threads: 1, heapCeilingBytes: limits.jsHeapCeilingBytes, backstopGraceMs: limits.jsBackstopGraceMs },
    closing.signal,
  );
  const diagnostics: Diagnostic[] = [];
  try {
    for (const hook of js) {
      // The operator's report names the full path (records given to hooks and results never do).
      const filename = hook.js.sourcePath ?? hook.js.filename;
      const r = await lane.compile({ code: hook.js.code, filename }, hook.deadlineMs);
      if (r.kind === 'ok') continue;
      const message =
        r.kind === 'error'
          ? r.message
          : `JS hook "${hook.id}" (${filename}) could not be compiled within its ${r.limit} limit: ${r.message}`;
      diagnostics.push({
        severity: 'error',
        file: hook.location.file,
        path: hook.location.path,
        message,
        skipped: false,
      });
    }
  } finally {
    closing.abort();
    await lane.close();
  }
  return diagnostics;
}
