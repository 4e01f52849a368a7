import { resolve } from 'node:path';
import type { Tracer } from '@opentelemetry/api';
import type { AuditOption } from '../audit/audit-log.js';
import type { IsolationLevel, Limits } from '../config/defaults.js';
import type { Diagnostic } from '../config/diagnostics.js';
import { HOOK_TYPE_KEYS, type HookTypeOptions, hookTypeOptionProblem } from '../config/hook-type-policy.js';
import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';
import type { SourceSpec } from '../config/read-source.js';
import type { Evaluators, EvaluatorType } from '../contract/evaluator.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { renderValue } from '../contract/messages.js';
import type { TenantIsolation } from '../dispatch/context.js';
import {
  type RemotePackOptions,
  type ResolvedRemoteOptions,
  resolveRemoteOptions,
} from '../packs/remote/options.js';
import { toSources } from './config-sources.js';
import { checkRoot, checkScalarOptions, parseLimits, parseRemotePacks } from './option-checks.js';
import { type QueueOptions, type ResolvedQueueOptions, resolveQueueOptions } from './queue-options.js';
import type { ReloadResult } from './reload.js';
import { resolveTenantIsolation, type TenantIsolationOptions } from './tenant-isolation-option.js';
import { checkTracer } from './tracing-option.js';

export type { TenantIsolationOptions } from './tenant-isolation-option.js';

/**
 * A config file path, an inline config object, or `{ path, scope, optional }`: `scope: "user"` loads
 * the file as user scope, and `optional: true` skips it silently when it does not exist.
 */
export type ConfigSource =
  | string
  | { path: string; scope?: 'project' | 'user'; optional?: boolean }
  | Record<string, unknown>;

export interface ExecutorOptions {
  /** Config file path(s) or object(s); later files replace earlier hooks of the same event+name. */
  config?: ConfigSource | readonly ConfigSource[];
  /** Policy file path(s) or object(s): policy scope, never replaced; unreadable → deny-capable events deny. */
  policy?: ConfigSource | readonly ConfigSource[];
  /** Sandbox root: the cwd of command hooks. Default: the current directory. */
  root?: string;
  /** Limits; these win over limits set in config files. */
  limits?: Partial<Limits>;
  /** Audit sink: a JSONL file path, a callback, or `{ file, fsync, onRecord }`. */
  audit?: AuditOption;
  /**
   * Receives each config problem as a {@link Diagnostic} object (`severity`, `file`, `path`,
   * `message`, `skipped`), not a string. Default: printed to stderr as one line,
   * `hookwarden: <severity>: <file>: <path>: <message>`.
   */
  onWarning?: (diagnostic: Diagnostic) => void;
  /**
   * Directory under which each command hook gets its scratch HOME/TMPDIR (removed after the hook).
   * Default: a tmpfs when the host has one ($XDG_RUNTIME_DIR or /dev/shm), else the OS temp dir.
   */
  scratchRoot?: string;
  /**
   * Keep `once` state in files under this directory (one per tenant and session, shared by every
   * process that names it; `hookwarden claude-code` uses `$XDG_STATE_HOME/hookwarden/once`), rather
   * than in this executor's memory. Default: memory.
   */
  onceStateDir?: string;
  /**
   * Hot reload: watch the config files, the pinned packs and their key files, and reload 300 ms after
   * the last change. A reload that brings a new error keeps the last-known-good configuration. The
   * watchers never keep the process alive; close() stops them. Default false (`reload()` still works).
   */
  watch?: boolean;
  /** Called after every reload, watched or through `reload()`, with its result. */
  onReload?: (result: ReloadResult) => void;
  /**
   * Make every skipped entry of every config file an error: createExecutor() rejects (and a reload
   * is refused) instead of loading the rest with a warning. Default false.
   */
  strict?: boolean;
  /**
   * Start the QuickJS worker threads when the executor is created (if the configuration has JS
   * hooks; the wasm workers likewise for wasm hooks), so that the first JS hook does not wait for them. `false` starts them when the first JS
   * hook runs: a process that dispatches once (the CLI does) then loads QuickJS and Piscina only if
   * a JS hook actually runs. Default true.
   */
  prestartJsWorkers?: boolean;
  /**
   * Packs pinned by URL: the cache directory of fetched bundles (default
   * `$XDG_CACHE_HOME/hookwarden/packs` or `~/.cache/hookwarden/packs`, mode 0700), size and entry
   * limits, the download deadline, and whether every load asks the server. See docs/packs.md.
   */
  remotePacks?: RemotePackOptions;
  /**
   * URL patterns (`*` wildcards, Claude Code's `allowedHttpHookUrls`) that http hooks may be sent to,
   * joined with those of the policy files. Without a list from either, no http hook runs. Matched on
   * the normalised URL, host and the rest apart: `"https://hooks.example.com/*"`, `"http://localhost:*"`.
   */
  allowedHttpHookUrls?: readonly string[];
  /**
   * The variables any http hook's headers may name (Claude Code's `httpHookAllowedEnvVars`), joined
   * with those of the policy files: an outer limit of each hook's `allowedEnvVars`. Names listed here
   * are vouched for: sent even when they look like secrets. Default: no outer limit, and
   * secret-looking names are never sent.
   */
  httpHookAllowedEnvVars?: readonly string[];
  /**
   * The platform's answers to `prompt` and `agent` hooks: `(hook, input, { signal, inputJson }) =>
   * output`. A hook of a type without an evaluator is skipped at load with a warning.
   */
  evaluators?: Evaluators;
  /** The async hooks' queue (docs/scaling.md): in-process by default. */
  queue?: QueueOptions;
  /**
   * Least isolation of every tenant's own command hooks (docs/security.md), or per tenant:
   * `"namespace"`, or `{ default: "namespace", tenants: { acme: "process" } }`. A tenant's entry here
   * wins over its policy file's `tenants.<id>.isolation` and setTenant's `isolation`, which win over
   * `default`. Policy hooks are the operator's and keep their own. Default "process" (`hookwarden
   * serve`: "namespace").
   */
  tenantIsolation?: IsolationLevel | TenantIsolationOptions;
  /**
   * An OpenTelemetry `Tracer` from the caller's setup (`trace.getTracer('hookwarden')`): a span per
   * dispatch (under the active context, or `dispatch`'s `traceContext`), one per hook it ran, one per
   * async run linked to its dispatch; attributes are the audit record's, never a hook's input or
   * output (docs/library.md "Traces"). Without it no span is made and the API is never loaded.
   */
  tracer?: Tracer;
}

export interface ResolvedOptions {
  readonly config: readonly SourceSpec[];
  readonly policy: readonly SourceSpec[];
  readonly root: string;
  readonly limits: Partial<Limits>;
  readonly audit: AuditOption | undefined;
  readonly onWarning: ((d: Diagnostic) => void) | undefined;
  readonly scratchRoot: string | undefined;
  readonly onceStateDir: string | undefined;
  readonly watch: boolean;
  readonly onReload: ((result: ReloadResult) => void) | undefined;
  readonly strict: boolean;
  readonly prestartJsWorkers: boolean;
  readonly remote: ResolvedRemoteOptions;
  readonly queue: ResolvedQueueOptions;
  readonly hookTypes: HookTypeOptions;
  readonly evaluators: Evaluators | undefined;
  readonly tenantIsolation: TenantIsolation;
  readonly tracer: Tracer | undefined;
}

/** Every key of ExecutorOptions (an unknown one is refused, with the likely meant one). */
export const EXECUTOR_OPTION_KEYS = optionKeys<ExecutorOptions>()([
  'config',
  'policy',
  'root',
  'limits',
  'audit',
  'onWarning',
  'scratchRoot',
  'watch',
  'onReload',
  'strict',
  'prestartJsWorkers',
  'remotePacks',
  'allowedHttpHookUrls',
  'httpHookAllowedEnvVars',
  'evaluators',
  'queue',
  'onceStateDir',
  'tenantIsolation',
  'tracer',
]);

export function resolveOptions(options: ExecutorOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new HookwardenError('invalid_options', `options: expected an object, got ${renderValue(options)}`);
  }
  refuseUnknownOptions(options, EXECUTOR_OPTION_KEYS, '');
  const root = checkRoot(options.root);
  const limits = parseLimits(options.limits);
  checkScalarOptions(options);
  const remote = parseRemotePacks(options.remotePacks);
  const hookTypes = resolveHookTypes(options);
  return Object.freeze({
    config: toSources(options.config, 'config', root),
    policy: toSources(options.policy, 'policy', root),
    root,
    limits,
    audit: options.audit,
    onWarning: options.onWarning,
    scratchRoot: options.scratchRoot === undefined ? undefined : resolve(options.scratchRoot),
    onceStateDir: options.onceStateDir === undefined ? undefined : resolve(options.onceStateDir),
    watch: options.watch === true,
    onReload: options.onReload,
    strict: options.strict === true,
    prestartJsWorkers: options.prestartJsWorkers !== false,
    remote: resolveRemoteOptions(remote),
    queue: resolveQueueOptions(options.queue),
    hookTypes,
    evaluators: options.evaluators === undefined ? undefined : Object.freeze({ ...options.evaluators }),
    tenantIsolation: resolveTenantIsolation(options.tenantIsolation),
    tracer: checkTracer(options.tracer),
  });
}

/** `allowedHttpHookUrls`, `httpHookAllowedEnvVars` and `evaluators`, checked. */
function resolveHookTypes(options: ExecutorOptions): HookTypeOptions {
  const out: { -readonly [K in keyof HookTypeOptions]: HookTypeOptions[K] } = {};
  for (const key of HOOK_TYPE_KEYS) {
    const value = options[key];
    if (value === undefined) continue;
    const problem = hookTypeOptionProblem(key, value);
    if (problem !== undefined) throw new HookwardenError('invalid_options', problem);
    out[key] = Object.freeze([...value]);
  }
  const { evaluators } = options;
  if (evaluators !== undefined) {
    if (typeof evaluators !== 'object' || evaluators === null || Array.isArray(evaluators))
      throw new HookwardenError(
        'invalid_options',
        `evaluators: expected an object like { prompt: async (hook, input, { signal }) => output }, got ${renderValue(evaluators)}`,
      );
    const types: EvaluatorType[] = [];
    for (const [key, fn] of Object.entries(evaluators)) {
      if (key !== 'prompt' && key !== 'agent')
        throw new HookwardenError('invalid_options', `evaluators.${key}: expected "prompt" or "agent" only`);
      if (fn === undefined) continue;
      if (typeof fn !== 'function')
        throw new HookwardenError(
          'invalid_options',
          `evaluators.${key}: expected a function, got ${renderValue(fn)}`,
        );
      types.push(key);
    }
    out.evaluators = Object.freeze(types);
  }
  return Object.freeze(out);
}
