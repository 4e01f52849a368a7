// hookwarden's public API for embedders (package.json `exports` "."): create an executor, dispatch
// events to it, and the types, schemas and errors that come with that. Policy pack tooling, audit
// verification and the benchmark engine have entries of their own: `hookwarden/packs`,
// `hookwarden/audit` and `hookwarden/bench`.

/** An audit record (metadata only) and the `audit` option of createExecutor. */
export type { AuditOption, AuditRecord } from './audit/audit-log.js';
/** The `audit.decisionLog` option (an HTTP sink of decision events), and what its `decision-log` event reports. */
export type { DecisionLogProblem, DecisionLogStats } from './audit/decision-log.js';
export type { DecisionLogOptions } from './audit/decision-log-options.js';
/** The executor's events: `hook.started`, `hook.completed`, `async.completed`, `rewake`, `audit.failed` and `decision-log`. */
export type { AuditFailedEvent, HookEventMap, HookEventName, HookStartedEvent } from './audit/hook-events.js';
/** Every default, in one frozen constant; the executor's limits. */
export { DEFAULTS, type Limits } from './config/defaults.js';
/** A config problem: file, JSON path, message, severity (what `onWarning` receives). */
export type { Diagnostic } from './config/diagnostics.js';
/** The JSON Schema of hooks.json (for editors), generated from the zod schemas. */
export { hooksJsonSchema } from './config/json-schema.js';
/** A pinned pack and how it fared at load (in a ValidationReport). */
export type { PackStatus } from './config/pin-loader.js';
/** zod schemas of a config file and of one hook spec. */
export { configFileSchema, hookSpecSchema } from './config/schema.js';
/** An async hook's `async.completed` and `rewake` events (docs/scaling.md). */
export type { AsyncCompletedEvent, RewakeEvent } from './contract/async-events.js';
/** A hook's failure as data (`code`, `message`, typed `details`), and the closed list of codes. */
export { ERROR_CODES, type ErrorCode, type ErrorDetails, type HookError } from './contract/error-codes.js';
/** Prompt and agent hooks: what the platform registers (`evaluators`) and what it is given. */
export type {
  EvaluatorContext,
  EvaluatorHook,
  Evaluators,
  EvaluatorType,
  HookEvaluator,
} from './contract/evaluator.js';
/** The built-in event catalogue and the Claude Code / FreeCode names that resolve to it. */
export { DEFAULT_EVENTS, EVENT_ALIASES, type EventDefinition } from './contract/events.js';
/** zod schema of a hook's input. */
export { hookInputSchema } from './contract/hook-input.js';
/** zod schema of a hook's answer. */
export { hookOutputSchema } from './contract/hook-output.js';
/** The error thrown on misuse, and a check that works across copies of the package. */
export {
  HookwardenError,
  type HookwardenErrorCode,
  isHookwardenError,
} from './contract/hookwarden-error.js';
/** A dispatch's folded verdict, and each hook's record in it. */
export type { DispatchResult, HookRecord } from './contract/result.js';
/** The value types of the contract. */
export type {
  Decision,
  DispatchInput,
  HookInput,
  HookOutput,
  HookType,
  Outcome,
  Scope,
  Verdict,
} from './contract/types.js';
/** Per-dispatch options: tenant, abort signal, and a per-task timing listener. */
export type { DispatchOptions } from './dispatch/context.js';
/** Where one hook task's time went (queue, transport, run), for DispatchOptions.onHookTiming. */
export type { HookTiming, HookTimingListener } from './dispatch/hook-timing.js';
/** The executor: createExecutor() and what it returns. */
export { type CloseOptions, createExecutor, type Executor } from './executor/executor.js';
/** createExecutor's options (`queue`: the async hooks' queue). */
export type { ConfigSource, ExecutorOptions } from './executor/options.js';
export type { QueueOptions } from './executor/queue-options.js';
/** What reload() (and onReload) reports. */
export type { ReloadResult } from './executor/reload.js';
/** setTenant()'s spec. */
export type { TenantSpec } from './executor/tenants.js';
export type { TrustedHookSpec } from './executor/trusted-hook.js';
/** Validates configuration without running a hook (what `hookwarden validate` reports). */
export { type HttpHookReport, type ValidationReport, validateConfig } from './executor/validate.js';
/** createExecutor's `remotePacks` option: packs pinned by URL (cache, limits, revalidation). */
export type { RemotePackOptions } from './packs/remote/options.js';
/** A tenant's scheduling limits. */
export type { TenantLimits } from './pool/tenant-queues.js';
/** What a trusted callback receives. */
export type { TrustedContext, TrustedHandler } from './registry/hook-definition.js';
