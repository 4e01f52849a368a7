// One dispatch, stage by stage (DESIGN §1): resolve → plan → execute → fold → record.

import type { AuditLog } from '../audit/audit-log.js';
import type { HookEvents } from '../audit/hook-events.js';
import type { HookDefinition } from '../config/hook-definition.js';
import { tenantIdProblem } from '../config/tenants.js';
import type { EventDefinition } from '../contract/events.js';
import {
  type FoldHook,
  type FoldState,
  finishFold,
  foldStep,
  type HookAnswer,
  startFold,
} from '../contract/fold.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import type { DispatchResult } from '../contract/result.js';
import type { HookInput } from '../contract/types.js';
import type { HookPool } from '../pool/pool.js';
import type { RegisteredHook } from '../registry/registry.js';
import { runCommandHook } from './command-hook.js';
import type { Generation } from './generation.js';
import { runJsHooks } from './js-hook.js';
import { prepareInput } from './prepare-input.js';
import { notifyStarted, recordDispatch, startNotifier } from './record.js';
import { runTrustedHook } from './trusted-hook.js';

export interface DispatchOptions {
  /** Tenant the dispatch runs for (recorded in audit records). */
  readonly tenant?: string | undefined;
  /** Aborting resolves the dispatch at once: deny (`interrupted`) on deny-capable events. */
  readonly signal?: AbortSignal | undefined;
}

export interface DispatchContext {
  readonly pool: HookPool;
  readonly root: string;
  readonly audit: AuditLog | undefined;
  readonly events: HookEvents | undefined;
}

const INTERRUPTED = 'interrupted: the dispatch was aborted before a verdict';

/** Marks a result interrupted: no verdict means no permission on deny-capable events. Keeps key order. */
function interrupted(result: DispatchResult, def: EventDefinition): DispatchResult {
  const { event, decision, reason, decidedBy, interrupted: _, hooks, ...rest } = result;
  const deny = def.canDeny && decision !== 'deny';
  const out: DispatchResult = { event, decision: deny ? 'deny' : decision } as DispatchResult;
  if (deny) out.reason = INTERRUPTED;
  else {
    if (reason !== undefined) out.reason = reason;
    if (decidedBy !== undefined) out.decidedBy = decidedBy;
  }
  out.interrupted = true;
  return Object.assign(out, rest, { hooks });
}

/** The answer to a dispatch interrupted before any hook ran (the CLI's Ctrl-C during start-up). */
export function interruptedResult(def: EventDefinition): DispatchResult {
  return interrupted({ event: def.name, decision: 'passthrough', hooks: [] }, def);
}

function tooLarge(inputJson: string, gen: Generation): HookAnswer | undefined {
  const bytes = Buffer.byteLength(inputJson);
  if (bytes <= gen.limits.maxInputBytes) return undefined;
  const message = `input is ${bytes} bytes, above limits.maxInputBytes (${gen.limits.maxInputBytes})`;
  return { kind: 'failure', error: { code: 'input_too_large', message }, latencyMs: 0, queuedMs: 0 };
}

/** Runs one command or trusted hook and returns its answer; never throws for a hook's own failure. */
async function execute(
  hook: RegisteredHook,
  input: HookInput,
  inputJson: string,
  ctx: DispatchContext,
  gen: Generation,
  options: DispatchOptions,
): Promise<HookAnswer> {
  const big = tooLarge(inputJson, gen);
  if (big !== undefined) return big;
  const { signal } = options;
  switch (hook.type) {
    case 'command':
      return runCommandHook(hook, input, inputJson, {
        pool: ctx.pool,
        root: ctx.root,
        signal,
        tenant: options.tenant ?? '',
        onStart: startNotifier(ctx, options, [hook]),
      });
    case 'trusted':
      notifyStarted(ctx, options, [hook]);
      return runTrustedHook(hook, input, ctx.pool, signal);
    case 'js':
      return (await executeJs([hook], input, inputJson, ctx, gen, options, undefined))[0]!;
  }
}

/** Runs JS hooks (one, or adjacent ones of a serial chain) as one task on the QuickJS lane. */
async function executeJs(
  hooks: readonly HookDefinition[],
  input: HookInput,
  inputJson: string,
  ctx: DispatchContext,
  gen: Generation,
  options: DispatchOptions,
  def: EventDefinition | undefined,
): Promise<HookAnswer[]> {
  const big = tooLarge(inputJson, gen);
  if (big !== undefined) return hooks.map(() => big);
  const event = def ?? gen.catalogue.get(hooks[0]!.event)!;
  return runJsHooks(event, hooks, input, inputJson, {
    pool: ctx.pool,
    signal: options.signal,
    tenant: options.tenant,
    maxInputBytes: gen.limits.maxInputBytes,
    measureMemory: ctx.audit !== undefined || ctx.events?.has('hook.completed') === true,
    onStart: startNotifier(ctx, options, hooks),
  });
}

function overLimit(index: number, gen: Generation): HookAnswer | undefined {
  if (index < gen.limits.maxHookCalls) return undefined;
  const message = `limits.maxHookCalls (${gen.limits.maxHookCalls}) reached: this hook was not run`;
  return {
    kind: 'failure',
    error: { code: 'max_hook_calls', message },
    latencyMs: 0,
    queuedMs: 0,
    notRun: true,
  };
}

export async function dispatch(
  gen: Generation,
  ctx: DispatchContext,
  eventName: string,
  rawInput: unknown,
  options: DispatchOptions = {},
): Promise<DispatchResult> {
  // resolve
  const resolved = gen.catalogue.resolve(eventName);
  if (resolved === undefined) {
    throw new HookwardenError(
      'unknown_event',
      `unknown event "${eventName}"; valid events are ${gen.catalogue.acceptedNames().join(', ')}`,
    );
  }
  if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput)) {
    throw new HookwardenError(
      'invalid_input',
      `invalid hook input: expected an object, got ${rawInput === null ? 'null' : typeof rawInput}`,
    );
  }
  const def = resolved.definition;
  const { signal } = options;
  // A tenant's dispatches run the trusted and policy hooks and the tenant's own hooks only.
  let scope: { registry: Generation['registry']; policyFailures: readonly string[] } = gen;
  if (options.tenant !== undefined) {
    const problem = tenantIdProblem(options.tenant);
    if (problem !== undefined) throw new HookwardenError('invalid_input', `tenant: ${problem}`);
    const t = gen.tenants.get(options.tenant) ?? gen.policyOnly;
    scope = {
      registry: t.registry,
      policyFailures:
        t.policyFailures.length === 0 ? gen.policyFailures : [...gen.policyFailures, ...t.policyFailures],
    };
  }
  if (signal?.aborted) return interruptedResult(def);
  if (def.canDeny && scope.policyFailures.length > 0) {
    return {
      event: def.name,
      decision: 'deny',
      reason: scope.policyFailures.join('; '),
      decidedBy: 'policy',
      hooks: [],
    };
  }
  // Fast path: when no hook matches, nothing else is validated and nothing touches the pool.
  const probe = rawInput as Partial<HookInput>;
  if (probe.toolName !== undefined && typeof probe.toolName !== 'string') {
    prepareInput(def.name, resolved.aliasInput, rawInput, ctx.root); // throws the invalid_input error
  }
  const matched = scope.registry.match(
    def,
    resolved.aliasInput === undefined ? probe : { ...probe, ...resolved.aliasInput },
  );
  if (matched.length === 0) return { event: def.name, decision: 'passthrough', hooks: [] };
  const input = prepareInput(def.name, resolved.aliasInput, rawInput, ctx.root);
  const hooks = scope.registry.takeOnce(matched, input.sessionId);
  if (hooks.length === 0) return { event: def.name, decision: 'passthrough', hooks: [] };

  // plan + execute + fold
  let jsonFor: HookInput | undefined;
  let json = '';
  const serialize = (i: HookInput) => {
    if (jsonFor !== i) {
      json = JSON.stringify(i);
      jsonFor = i;
    }
    return json;
  };
  let state: FoldState = startFold(input);
  if (def.mode === 'serial') {
    for (let i = 0; i < hooks.length; ) {
      const hook = hooks[i]!;
      const blocked = overLimit(i, gen);
      if (blocked === undefined && !state.stopped && !signal?.aborted && hook.type === 'js') {
        // Adjacent JS hooks run as one task: one round trip, folded in the worker by the same rules.
        let end = i + 1;
        while (end < hooks.length && end < gen.limits.maxHookCalls && hooks[end]!.type === 'js') end++;
        const run = hooks.slice(i, end) as HookDefinition[];
        const answers = await executeJs(run, state.input, serialize(state.input), ctx, gen, options, def);
        run.forEach((h, k) => {
          state = foldStep(def, state, h as FoldHook, answers[k]!);
        });
        i = end;
        continue;
      }
      const answer =
        blocked ??
        (state.stopped || signal?.aborted
          ? ({ kind: 'not-run' } as const)
          : await execute(hook, state.input, serialize(state.input), ctx, gen, options));
      state = foldStep(def, state, hook as FoldHook, answer);
      i++;
    }
  } else {
    const inputJson = serialize(input);
    const answers = await Promise.all(
      hooks.map((hook, i) => overLimit(i, gen) ?? execute(hook, input, inputJson, ctx, gen, options)),
    );
    hooks.forEach((hook, i) => {
      state = foldStep(def, state, hook as FoldHook, answers[i]!);
    });
  }
  let result = finishFold(def, state);
  if (signal?.aborted) result = interrupted(result, def);

  recordDispatch(ctx, def.name, options.tenant, hooks, result);
  return result;
}
