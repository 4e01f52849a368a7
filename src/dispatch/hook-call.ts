// The execute stage's one call object: every hook runner (runners.ts) is called with the hook, the
// input as it stands and its JSON, the tenant, the lane turn, and the parts of the executor and the
// dispatch a runner may need. DispatchRun builds it (run.ts); a runner takes what its type uses.
import type { IsolationLevel } from '../config/defaults.js';
import type { ScopeLimits } from '../config/scope-limits.js';
import type { EventDefinition } from '../contract/events.js';
import type { HookInput } from '../contract/types.js';
import type { LaneRunOptions } from '../pool/pool.js';
import type { RegisteredHook } from '../registry/registry.js';
import type { DispatchContext } from './context.js';
import type { HookTimingListener } from './hook-timing.js';

export interface HookCall<D extends RegisteredHook = RegisteredHook> {
  readonly def: D;
  readonly input: HookInput;
  /** The input as JSON (serialized once per input object, when a runner first reads it). */
  readonly inputJson: string;
  /** The dispatch's tenant, normalised once where the dispatch starts: '' for none. */
  readonly tenant: string;
  /** The hook's turn on its lane: the dispatch's signal, the tenant, and the `hook.started` notifier. */
  readonly lane: LaneRunOptions & { readonly tenant: string };
  /** The executor's parts: the pool, the sandbox root, the evaluators, the audit and event sinks. */
  readonly ctx: DispatchContext;
  /** The event dispatched. */
  readonly event: EventDefinition;
  /** The limits of the hook's scope. */
  readonly limits: ScopeLimits;
  /** The operator's least isolation for a tenant's own command hook (undefined: it keeps its own). */
  readonly isolationFloor: IsolationLevel | undefined;
  readonly onTiming: HookTimingListener | undefined;
  /**
   * The environment the hook inherits from (command `inheritEnv`, http header `$VAR`s): the
   * dispatch's `env` option; undefined: this process's.
   */
  readonly env: Readonly<Record<string, string | undefined>> | undefined;
}
