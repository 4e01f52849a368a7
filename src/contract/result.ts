// DispatchResult and the per-hook record (docs/semantics.md#dispatchresult). Dependency-free.
import type { RlimitName, SandboxFacts } from './command-task.js';
import type { HookError } from './error-codes.js';
import { MUTATION_FIELDS, type Mutations } from './output-fields.js';
import type { HookType, Outcome, Scope, Verdict } from './types.js';

/** One hook's line in a DispatchResult. Never contains the hook's input; `reason` is the hook's own. */
export interface HookRecord {
  /** Stable hook id: the configured `name`, or one derived from the spec's content. */
  id: string;
  type: HookType;
  scope: Scope;
  outcome: Outcome;
  /** Time the hook ran (spawn to exit, or isolate call), in milliseconds. */
  latencyMs: number;
  /** Time the hook waited for a pool slot, in milliseconds. */
  queuedMs: number;
  error?: HookError;
  /** Output fields the event does not honour (or unknown keys), in the order the hook gave them. */
  ignoredFields?: string[];
  /**
   * What of the hook's answer was not applied, and why, one sentence each: a session variable or
   * CLAUDE_ENV_FILE line the session-env rule refused, a PermissionRequest approval given on
   * PreToolUse's field. Capped like reasons (at most `maxIgnoredFields` entries).
   */
  warnings?: string[];
  /**
   * Captured `console.*` lines of a JS hook: at most 100 lines / 16 KiB, then one line counting the
   * dropped ones. Part of the result, so `hookwarden dispatch` prints them inside its JSON on stdout;
   * never written anywhere on their own, and never in audit records.
   */
  logs?: string[];
  /** JS hooks, when an audit sink or `hook.completed` listener asks for it: bytes the runtime held. */
  memoryBytes?: number;
  /**
   * True when this run re-checked a rewrite: the hook had seen an older input, and ran again on the
   * input as a later hook rewrote it (its earlier record stays, before this one).
   */
  recheck?: true;
  /**
   * Async hooks (`async: true`): the id of the background run, on the `queued` record and on the
   * completion events and audit record that follow it (docs/scaling.md).
   */
  asyncId?: string;
  /**
   * Command hooks: the containment the hook actually got. `contained`: process mode in user, PID,
   * mount and IPC namespaces of its own (it sees and signals only its own processes);
   * `uncontained`: process mode beside the host (`uncontainedReason` says why); `namespace`: a
   * sandbox of its own. See docs/security.md.
   */
  containment?: SandboxFacts['containment'];
  uncontainedReason?: string;
  /** Rlimits lowered to the host's hard limits: the value that applied, by name. */
  clampedLimits?: Partial<Record<RlimitName, number>>;
  /** Command hooks: the cap on its processes and threads (mechanism and bound). */
  processCap?: NonNullable<SandboxFacts['processCap']>;
  /** Command hooks: the Landlock ABI it ran under, where the kernel has Landlock. */
  landlock?: number;
  /** Command hooks: hookwarden's sandbox knobs set in the environment (`NAME=value`). */
  knobs?: string[];
  /**
   * The hook's machinery (the spawn server, a JS worker) was lost under it through no doing of its
   * own: it ran once more on fresh machinery, and this is how the first run ended.
   */
  retried?: HookError;
}

/**
 * The folded verdict of one dispatch. Keys appear in this order in JSON: event, decision, reason,
 * decidedBy, interrupted, the folded mutation fields (output-fields.ts order), warnings, hooks.
 */
export type DispatchResult = {
  event: string;
  decision: Verdict;
  reason?: string;
  /** Id of the hook whose answer set `decision` (or `policy` when the policy scope failed to load). */
  decidedBy?: string;
  /** True when the caller aborted the dispatch before a verdict. */
  interrupted?: boolean;
} & Mutations & {
    /**
     * What went wrong around the hooks without changing the verdict, one line each: the audit
     * records of this dispatch could not be written (they are kept and written later).
     */
    warnings?: string[];
    hooks: HookRecord[];
  };

/** What a DispatchResult is made of: the event and the decision, and any of the other fields. */
export type DispatchResultParts = {
  readonly [K in Exclude<keyof DispatchResult, 'hooks'>]?: DispatchResult[K] | undefined;
} & Pick<DispatchResult, 'event' | 'decision'> & { readonly hooks?: readonly HookRecord[] | undefined };

/**
 * The one constructor of every DispatchResult: the keys in the documented order (event, decision,
 * reason, decidedBy, interrupted, the mutation fields in output-fields.ts order, warnings, hooks),
 * fields that are undefined left out, and the lists copied.
 */
export function dispatchResult(parts: DispatchResultParts): DispatchResult {
  const result = { event: parts.event, decision: parts.decision } as DispatchResult;
  if (parts.reason !== undefined) result.reason = parts.reason;
  if (parts.decidedBy !== undefined) result.decidedBy = parts.decidedBy;
  if (parts.interrupted !== undefined) result.interrupted = parts.interrupted;
  for (const field of MUTATION_FIELDS) {
    const value = parts[field];
    if (value !== undefined) (result as Record<string, unknown>)[field] = value;
  }
  if (parts.warnings !== undefined) result.warnings = [...parts.warnings];
  result.hooks = [...(parts.hooks ?? [])];
  return result;
}
