// One dispatch, stage by stage (docs/development.md): resolve the event and check the input, resolve the
// tenant's scope, select (fast path: nothing matches), then run the hooks — a serial chain or a
// parallel fan-out, with the re-check of rewrites — fold, and record.

import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';
import { tenantIdProblem } from '../config/tenant-id.js';
import type { EventDefinition } from '../contract/events.js';
import { finishFold, startFold } from '../contract/fold.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { conflictingTwins, withCamelCaseNames } from '../contract/input-names.js';
import { renderValue } from '../contract/messages.js';
import { type DispatchResult, dispatchResult } from '../contract/result.js';
import type { HookInput } from '../contract/types.js';
import { onceSession, type Registry } from '../registry/registry.js';
import type { DispatchContext, DispatchOptions } from './context.js';
import type { Generation } from './generation.js';
import { checkInputShape } from './input-shape.js';
import { prepareInput } from './prepare-input.js';
import { recordDispatch } from './record.js';
import { DispatchRun, matchBudget } from './run.js';
import { runParallel, runSerial } from './settle.js';
import { type DispatchTrace, tracedDispatch } from './trace-dispatch.js';

export type { DispatchContext, DispatchOptions } from './context.js';

const INTERRUPTED = 'interrupted: the dispatch was aborted before a verdict';

/** Marks a result interrupted: no verdict means no permission on deny-capable events. Keeps key order. */
function interrupted(result: DispatchResult, def: EventDefinition): DispatchResult {
  const deny = def.canDeny && result.decision !== 'deny';
  if (!deny) return dispatchResult({ ...result, interrupted: true });
  return dispatchResult({
    ...result,
    decision: 'deny',
    reason: INTERRUPTED,
    decidedBy: undefined,
    interrupted: true,
  });
}

/** The answer to a dispatch interrupted before any hook ran (the CLI's Ctrl-C during start-up). */
export function interruptedResult(def: EventDefinition): DispatchResult {
  return interrupted(dispatchResult({ event: def.name, decision: 'passthrough' }), def);
}

function resolveEvent(gen: Generation, eventName: string) {
  const resolved = gen.catalogue.resolve(eventName);
  if (resolved === undefined) {
    throw new HookwardenError(
      'unknown_event',
      `unknown event "${eventName}"; valid events are ${gen.catalogue.acceptedNames().join(', ')}`,
    );
  }
  return resolved;
}

/** The hooks a dispatch may run: a tenant's own plus trusted and policy hooks, or the default set. */
function resolveScope(
  gen: Generation,
  tenant: string | undefined,
): { registry: Registry; policyFailures: readonly string[] } {
  if (tenant === undefined) return gen;
  const t = gen.tenants.get(tenant) ?? gen.policyOnly;
  return {
    registry: t.registry,
    policyFailures:
      t.policyFailures.length === 0 ? gen.policyFailures : [...gen.policyFailures, ...t.policyFailures],
  };
}

const DISPATCH_OPTION_KEYS = optionKeys<DispatchOptions>()([
  'tenant',
  'signal',
  'onHookTiming',
  'env',
  'traceContext',
]);

/**
 * The `env` option, copied once: an object of strings (undefined values dropped). A getter or proxy
 * that throws, or a value that is not a string, is a typed error, and a later read sees the copy.
 */
function checkedEnv(env: unknown): Readonly<Record<string, string>> {
  const refuse = (what: string) => new HookwardenError('invalid_options', `dispatch options: env${what}`);
  if (typeof env !== 'object' || env === null || Array.isArray(env))
    throw refuse(`: expected an object of strings like process.env, got ${renderValue(env)}`);
  let entries: [string, unknown][];
  try {
    entries = Object.entries(env);
  } catch (err) {
    throw refuse(`: cannot be read (${err instanceof Error ? err.message : renderValue(err)})`);
  }
  const out: Record<string, string> = Object.create(null);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    if (typeof value !== 'string') throw refuse(`.${name}: expected a string, got ${renderValue(value)}`);
    out[name] = value;
  }
  return out;
}

/**
 * The third argument of dispatch(): an object of known keys (a typo must not drop the tenant), a
 * valid tenant id and an `env` of strings. The executor checks it before anything reads it (the
 * tenant's rate bucket) and dispatches with the checked copy.
 */
export function checkDispatchOptions(options: DispatchOptions): DispatchOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new HookwardenError(
      'invalid_options',
      `dispatch options: expected an object like { tenant, signal }, got ${renderValue(options)}`,
    );
  refuseUnknownOptions(options, DISPATCH_OPTION_KEYS, 'dispatch options');
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal))
    throw new HookwardenError(
      'invalid_options',
      `dispatch options: signal: expected an AbortSignal, got ${renderValue(options.signal)}`,
    );
  if (options.onHookTiming !== undefined && typeof options.onHookTiming !== 'function')
    throw new HookwardenError(
      'invalid_options',
      `dispatch options: onHookTiming: expected a function, got ${renderValue(options.onHookTiming)}`,
    );
  const tc = options.traceContext as { getValue?: unknown } | null | undefined;
  if (tc !== undefined && (typeof tc !== 'object' || tc === null || typeof tc.getValue !== 'function'))
    throw new HookwardenError(
      'invalid_options',
      `dispatch options: traceContext: expected an OpenTelemetry Context (context.active(), propagation.extract(…)), got ${renderValue(tc)}`,
    );
  if (options.tenant !== undefined) {
    const problem = tenantIdProblem(options.tenant);
    if (problem !== undefined) throw new HookwardenError('invalid_input', `tenant: ${problem}`);
  }
  return options.env === undefined ? options : { ...options, env: checkedEnv(options.env) };
}

/** One dispatch; traced when the executor has a tracer (trace-dispatch.ts). */
export function dispatch(
  gen: Generation,
  ctx: DispatchContext,
  eventName: string,
  input0: unknown,
  options0: DispatchOptions = {},
): Promise<DispatchResult> {
  if (ctx.tracing === undefined) return dispatchSteps(gen, ctx, eventName, input0, options0, undefined);
  return tracedDispatch(ctx.tracing, options0, (trace) =>
    dispatchSteps(gen, ctx, eventName, input0, options0, trace),
  );
}

async function dispatchSteps(
  gen: Generation,
  ctx: DispatchContext,
  eventName: string,
  input0: unknown,
  options0: DispatchOptions,
  trace: DispatchTrace | undefined,
): Promise<DispatchResult> {
  const options = checkDispatchOptions(options0);
  const resolved = resolveEvent(gen, eventName);
  checkInputShape(input0, gen.limits.maxInputDepth);
  // Claude Code's snake_case fields are understood everywhere (their camelCase twins are added).
  const rawInput = withCamelCaseNames(input0, resolved.definition.name);
  const def = resolved.definition;
  const scope = resolveScope(gen, options.tenant);
  if (options.signal?.aborted) return interruptedResult(def);
  const twins = def.canDeny ? conflictingTwins(input0 as Record<string, unknown>) : undefined;
  if (twins !== undefined) return dispatchResult({ event: def.name, decision: 'deny', reason: twins });
  if (def.canDeny && scope.policyFailures.length > 0) {
    const reason = scope.policyFailures.join('; ');
    return dispatchResult({ event: def.name, decision: 'deny', reason, decidedBy: 'policy' });
  }
  // Fast path: when no hook accepts the input, nothing else is validated and nothing touches the pool.
  const probe = rawInput as Partial<HookInput>;
  if (probe.toolName !== undefined && typeof probe.toolName !== 'string') {
    prepareInput(def.name, resolved.aliasInput, rawInput, ctx.root); // throws the invalid_input error
  }
  const matchProbe = resolved.aliasInput === undefined ? probe : { ...probe, ...resolved.aliasInput };
  const budget = matchBudget();
  if (!scope.registry.anyAccepts(def, matchProbe, budget))
    return dispatchResult({ event: def.name, decision: 'passthrough' });
  const input = prepareInput(def.name, resolved.aliasInput, rawInput, ctx.root);

  // Once-state is per tenant and session; an input that names no session lets `once` skip nothing.
  const given = typeof probe.sessionId === 'string' ? probe.sessionId : undefined;
  const once = onceSession(options.tenant, given);
  const run = new DispatchRun({
    gen,
    ctx,
    options,
    def,
    registry: scope.registry,
    sessionId: input.sessionId,
    budget,
    onceSession: once,
    trace,
  });
  try {
    run.serialize(input); // what every hook is given; kept for the first one
  } catch (err) {
    // A toJSON() that throws, or one that returns what JSON cannot write.
    throw new HookwardenError(
      'invalid_input',
      `invalid hook input: it cannot be written as JSON (${err instanceof Error ? `${err.name}: ${err.message}` : String(err)})`.slice(
        0,
        300,
      ),
      { cause: err },
    );
  }
  const start = startFold(input);
  const state = def.mode === 'serial' ? await runSerial(run, start) : await runParallel(run, start);
  if (state.records.length === 0) return dispatchResult({ event: def.name, decision: 'passthrough' });
  let result = finishFold(def, state);
  if (options.signal?.aborted) result = interrupted(result, def);
  result = await recordDispatch(ctx, def, options.tenant, run.folded, result, trace?.span.traceparent());
  if (run.asyncJobs.length > 0) ctx.async?.release(run.asyncJobs);
  return result;
}
