// What a dispatch runs with: the caller's options and the executor's parts.

import type { Context } from '@opentelemetry/api';
import type { AuditLog } from '../audit/audit-log.js';
import type { DecisionLog } from '../audit/decision-log.js';
import type { HookEvents } from '../audit/hook-events.js';
import type { Tracing } from '../audit/tracing.js';
import type { IsolationLevel } from '../config/defaults.js';
import type { Evaluators } from '../contract/evaluator.js';
import type { HookAnswer } from '../contract/fold.js';
import type { HookPool } from '../pool/pool.js';
import type { HookDefinition } from '../registry/hook-definition.js';
import type { AsyncJob } from './async-job.js';
import type { Generation } from './generation.js';
import type { HookTimingListener } from './hook-timing.js';

export interface DispatchOptions {
  /** Tenant the dispatch runs for (recorded in audit records). */
  readonly tenant?: string | undefined;
  /** Aborting resolves the dispatch at once: deny (`interrupted`) on deny-capable events. */
  readonly signal?: AbortSignal | undefined;
  /**
   * Called after each hook task with where its time went (queue, transport, run); `hookwarden bench`
   * uses it for its stage split. Diagnostic: the shape may change between minor versions.
   */
  readonly onHookTiming?: HookTimingListener | undefined;
  /**
   * The environment hooks inherit from: command hooks' `inheritEnv` (and, for Claude Code files in
   * process mode, its host variables and `HOME`), http hooks' header `$VAR`s; each value through the
   * same secret filters. Default: this process's (`process.env`). A daemon that answers for another
   * process (the Claude Code client) passes that process's, so a hook sees what it would see there.
   */
  readonly env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * The OpenTelemetry context the dispatch's span is made under, when the executor has a `tracer`
   * (docs/library.md "Traces"). Default: the active context. `hookwarden serve` passes the caller's
   * `traceparent`.
   */
  readonly traceContext?: Context | undefined;
}

/**
 * The operator's isolation floors for tenants' own command hooks (the executor's `tenantIsolation`):
 * per tenant, else the tenant's own setting (its policy file, setTenant), else `default`.
 */
export interface TenantIsolation {
  readonly default: IsolationLevel;
  readonly tenants: ReadonlyMap<string, IsolationLevel>;
}

/** Where a dispatch hands its async hooks (src/async/): the in-process queue or Redis. */
export interface AsyncSubmitter {
  /** Queues one async hook run; the answer folded into its record (`queued`, or why it was refused). */
  submit(job: AsyncJob, hook: HookDefinition, gen: Generation): HookAnswer | Promise<HookAnswer>;
  /** The dispatch has answered: the runs it queued may start. */
  release(jobs: readonly AsyncJob[]): void;
}

export interface DispatchContext {
  readonly pool: HookPool;
  readonly root: string;
  readonly audit: AuditLog | undefined;
  readonly events: HookEvents | undefined;
  /** Async hooks go here; without it they run in the dispatch like any other hook. */
  readonly async?: AsyncSubmitter | undefined;
  /** The platform's evaluators of prompt and agent hooks. */
  readonly evaluators?: Evaluators | undefined;
  /** Isolation floors of tenants' own command hooks; none: they keep their own. */
  readonly tenantIsolation?: TenantIsolation | undefined;
  /** The decision-log sink (`audit.decisionLog`). */
  readonly decisions?: DecisionLog | undefined;
  /** The spans of dispatches and async runs (the executor's `tracer`); none: no span is made. */
  readonly tracing?: Tracing | undefined;
}
