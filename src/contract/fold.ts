// The fold (docs/semantics.md, "Folding"): a pure, deterministic merge of per-hook answers in registration
// order. Dependency-free so the sandbox worker can fold a serial chain of JS hooks with the very same
// rules as the host (one round trip per chain).
import type { SandboxFacts } from './command-task.js';
import type { OnError } from './decisions.js';
import type { HookError } from './error-codes.js';
import { outcomeForError } from './error-codes.js';
import { type EventDefinition, type Honoured, MUTATION_FIELDS, type MutationField } from './events.js';
import { jsonEqual } from './json-equal.js';
import { MERGE, OUTPUT_FIELDS, UNIVERSAL_FIELDS } from './output-fields.js';
import { type DispatchResult, dispatchResult, type HookRecord } from './result.js';
import type { Decision, HookInput, HookOutput, HookType, Scope, Verdict } from './types.js';

/** What the fold needs to know about a hook. */
export interface FoldHook {
  readonly id: string;
  readonly type: HookType;
  readonly scope: Scope;
  readonly onError: OnError;
}

interface Timing {
  latencyMs: number;
  queuedMs: number;
  logs?: string[];
  memoryBytes?: number;
  /** A command hook's containment and clamped rlimits (its record says so). */
  sandbox?: SandboxFacts;
  /** It ran again on fresh machinery after this loss (its record says so). */
  retried?: HookError;
}

/** One hook's answer, before folding. */
export type HookAnswer =
  | (Timing & {
      kind: 'output';
      output: HookOutput | undefined;
      unknownFields?: string[];
      /** The command exited 2 (whatever its mapped output says): an async rewake hook wakes the agent. */
      exit2?: true;
      /** What the command hook wrote to its CLAUDE_ENV_FILE (judged by the session-env rule before the fold). */
      envFile?: { readonly text: string; readonly truncated: boolean };
      /** What of the answer was not applied, and why, one sentence each (the record's `warnings`). */
      warnings?: string[];
    })
  | (Timing & { kind: 'failure'; error: HookError; notRun?: boolean })
  | (Timing & { kind: 'queued'; asyncId: string })
  | { kind: 'not-run' };

/**
 * The answer of a hook that never ran: refused by its lane, aborted or closed before it started,
 * past a limit, its pack changed on disk. Recorded `not-run` with the error; its `onError` applies.
 */
export function notRunAnswer(error: HookError, queuedMs = 0): HookAnswer {
  return { kind: 'failure', error, latencyMs: 0, queuedMs, notRun: true };
}

/** The running state of a fold. Treated as immutable: every step returns a new one. */
export interface FoldState {
  readonly decision: Verdict;
  readonly reason: string | undefined;
  readonly decidedBy: string | undefined;
  /** Set once a deny decided the dispatch: later hooks of a serial chain are not run. */
  readonly stopped: boolean;
  /** Values of the `join` fields (additionalContext, systemMessage), in order. */
  readonly joined: Readonly<Record<string, readonly string[]>>;
  readonly mutations: Readonly<Partial<Record<MutationField, unknown>>>;
  /** The input the next hook of a serial chain sees (earlier rewrites applied). */
  readonly input: HookInput;
  readonly records: readonly HookRecord[];
}

/** Milliseconds to microsecond precision. */
const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** Precedence: deny > defer > ask > allow (Claude Code's, for PreToolUse). */
const RANK: Record<Verdict, number> = { passthrough: 0, allow: 1, ask: 2, defer: 3, deny: 4 };

export function startFold(input: HookInput): FoldState {
  return {
    decision: 'passthrough',
    reason: undefined,
    decidedBy: undefined,
    stopped: false,
    joined: {},
    mutations: {},
    input,
    records: [],
  };
}

function decisionHonoured(def: EventDefinition, decision: Decision): boolean {
  return decision === 'deny' ? def.canDeny : def.honours.includes(decision);
}

function raise(state: FoldState, decision: Decision, reason: string | undefined, by: string): FoldState {
  const stopped = state.stopped || decision === 'deny';
  if (RANK[decision] <= RANK[state.decision])
    return stopped === state.stopped ? state : { ...state, stopped };
  return { ...state, decision, reason, decidedBy: by, stopped };
}

function record(hook: FoldHook, answer: HookAnswer, outcome: HookRecord['outcome']): HookRecord {
  const r: HookRecord = {
    id: hook.id,
    type: hook.type,
    scope: hook.scope,
    outcome,
    latencyMs: answer.kind === 'not-run' ? 0 : round(answer.latencyMs),
    queuedMs: answer.kind === 'not-run' ? 0 : round(answer.queuedMs),
  };
  if (answer.kind !== 'not-run' && answer.logs !== undefined && answer.logs.length > 0) r.logs = answer.logs;
  if (answer.kind !== 'not-run' && answer.memoryBytes !== undefined) r.memoryBytes = answer.memoryBytes;
  if (answer.kind !== 'not-run' && answer.sandbox !== undefined) {
    r.containment = answer.sandbox.containment;
    if (answer.sandbox.uncontainedReason !== undefined)
      r.uncontainedReason = answer.sandbox.uncontainedReason;
    if (answer.sandbox.clampedLimits !== undefined) r.clampedLimits = { ...answer.sandbox.clampedLimits };
    if (answer.sandbox.processCap !== undefined) r.processCap = { ...answer.sandbox.processCap };
    if (answer.sandbox.landlock !== undefined) r.landlock = answer.sandbox.landlock;
    if (answer.sandbox.knobs !== undefined) r.knobs = [...answer.sandbox.knobs];
  }
  if (answer.kind !== 'not-run' && answer.retried !== undefined) r.retried = answer.retried;
  return r;
}

function applyOutput(
  def: EventDefinition,
  state: FoldState,
  hook: FoldHook,
  output: HookOutput | undefined,
  unknownFields: readonly string[],
): { state: FoldState; outcome: HookRecord['outcome']; ignored: string[] } {
  const ignored: string[] = [];
  if (output === undefined) return { state, outcome: 'proceed', ignored: [...unknownFields] };
  let next = state;
  let outcome: HookRecord['outcome'] = 'proceed';
  const decisionOk = output.decision !== undefined && decisionHonoured(def, output.decision);
  let mutations: Partial<Record<MutationField, unknown>> | undefined;
  let input: HookInput | undefined;
  for (const field of OUTPUT_FIELDS) {
    const value = output[field];
    if (value === undefined) continue;
    if (field === 'decision' || field === 'reason') {
      if (!decisionOk) ignored.push(field);
      continue;
    }
    if (!def.honours.includes(field as Honoured) && !UNIVERSAL_FIELDS.has(field)) {
      ignored.push(field);
      continue;
    }
    if (MERGE[field] === 'join') {
      next = {
        ...next,
        joined: { ...next.joined, [field]: [...(next.joined[field] ?? []), value as string] },
      };
      continue;
    }
    mutations ??= { ...next.mutations };
    mutations[field as MutationField] =
      MERGE[field] === 'keys'
        ? { ...(mutations[field as MutationField] as object), ...(value as object) }
        : value;
    const target = def.chain[field as MutationField];
    // A rewrite: the next hooks of a serial chain see it. Writing back the same value is no rewrite.
    if (target !== undefined && def.mode === 'serial' && !jsonEqual(next.input[target], value)) {
      input ??= { ...next.input };
      (input as Record<string, unknown>)[target] = value;
    }
  }
  if (mutations !== undefined) next = { ...next, mutations };
  if (input !== undefined) {
    next = { ...next, input };
    // An approval covers the input it was given on (trust invariant 2): one given before this
    // rewrite no longer counts. The rewriting hook's own decision is applied below.
    if (next.decision === 'allow')
      next = { ...next, decision: 'passthrough', reason: undefined, decidedBy: undefined };
  }
  if (decisionOk && output.decision !== undefined) {
    outcome = output.decision;
    next = raise(next, output.decision, output.reason, hook.id);
  }
  if (output.continue === false) {
    // Stop processing: no later hook runs; where the event can deny, what was to happen does not.
    if (def.canDeny) {
      outcome = 'deny';
      next = raise(
        next,
        'deny',
        output.stopReason ?? output.reason ?? 'stopped by a hook (continue: false)',
        hook.id,
      );
    }
    next = { ...next, stopped: true };
  }
  ignored.push(...unknownFields);
  return { state: next, outcome, ignored };
}

/** Refusals of the machinery (not failures of the hook): on a deny-capable event they deny. */
const REFUSED_CODES: ReadonlySet<string> = new Set(['queue_full', 'pool_closed']);

/** Folds one hook's answer into the state. Pure: same inputs, same result. */
export function foldStep(
  def: EventDefinition,
  state: FoldState,
  hook: FoldHook,
  answer: HookAnswer,
): FoldState {
  if (answer.kind === 'not-run') {
    return { ...state, records: [...state.records, record(hook, answer, 'not-run')] };
  }
  if (answer.kind === 'queued') {
    // An async hook runs after the dispatch answered: its answer never reaches the verdict.
    const rec = record(hook, answer, 'queued');
    rec.asyncId = answer.asyncId;
    return { ...state, records: [...state.records, rec] };
  }
  if (answer.kind === 'failure') {
    const rec = record(hook, answer, answer.notRun === true ? 'not-run' : outcomeForError(answer.error.code));
    rec.error = answer.error;
    let next: FoldState = { ...state, records: [...state.records, rec] };
    if (hook.onError === 'deny') {
      const reason = `hook "${hook.id}" failed (${answer.error.code}) and is fail-closed (onError: "deny"): ${answer.error.message}`;
      next = raise(next, 'deny', reason, hook.id);
    } else if (answer.error.code === 'pack_tampered' && hook.scope === 'policy' && def.canDeny) {
      // A tampered policy pack fails closed whatever the hook's onError says (docs/semantics.md#failures).
      next = raise(next, 'deny', `policy hook "${hook.id}": ${answer.error.message}`, hook.id);
    } else if (def.canDeny && answer.notRun === true && REFUSED_CODES.has(answer.error.code)) {
      // Refused, not failed: the hook never looked at the input, so no verdict covers it, whatever
      // its onError says (a refused dispatch is never a verdict: docs/semantics.md#failures).
      next = raise(
        next,
        'deny',
        `hook "${hook.id}" was not run (${answer.error.code}): ${answer.error.message}; no verdict covers this input, so it is denied (retry later)`,
        hook.id,
      );
    }
    return next;
  }
  const applied = applyOutput(def, state, hook, answer.output, answer.unknownFields ?? []);
  const rec = record(hook, answer, applied.outcome);
  if (applied.ignored.length > 0) rec.ignoredFields = applied.ignored;
  if (answer.warnings !== undefined && answer.warnings.length > 0) rec.warnings = [...answer.warnings];
  return { ...applied.state, records: [...applied.state.records, rec] };
}

/** Turns a finished fold into the DispatchResult (fixed key order). */
export function finishFold(def: EventDefinition, state: FoldState): DispatchResult {
  // `join` fields are every hook's values joined.
  const mutations: Record<string, unknown> = {};
  for (const field of MUTATION_FIELDS) {
    const joined = state.joined[field];
    const value =
      MERGE[field] === 'join'
        ? joined === undefined
          ? undefined
          : joined.join('\n')
        : state.mutations[field];
    if (value !== undefined) mutations[field] = value;
  }
  const { decision, reason, decidedBy, records } = state;
  return dispatchResult({ event: def.name, decision, reason, decidedBy, ...mutations, hooks: records });
}

/** The whole fold: answers in registration order → DispatchResult. */
export function foldAnswers(
  def: EventDefinition,
  input: HookInput,
  answers: readonly (readonly [FoldHook, HookAnswer])[],
): DispatchResult {
  let state = startFold(input);
  for (const [hook, answer] of answers) state = foldStep(def, state, hook, answer);
  return finishFold(def, state);
}
