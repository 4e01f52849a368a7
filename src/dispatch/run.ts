// One dispatch in flight: what every stage shares (the generation, the executor's parts, the
// caller's options, the event, the tenant's registry), and how one hook — or a run of adjacent JS
// hooks — is handed to its lane. It owns the input's serialization (once per input object), the
// count of hook calls against `limits.maxHookCalls`, the matching step budget, and the order in
// which hooks were folded (for the record stage).

import { randomUUID } from 'node:crypto';
import type { IsolationLevel } from '../config/defaults.js';
import { type ErrorDetails, hookError } from '../contract/error-codes.js';
import type { EventDefinition } from '../contract/events.js';
import { type HookAnswer, notRunAnswer } from '../contract/fold.js';
import type { HookInput } from '../contract/types.js';
import { type HookDefinition, isAsyncHook, type JsHookDefinition } from '../registry/hook-definition.js';
import { StepBudget } from '../registry/regex/step-budget.js';
import type { RegisteredHook, Registry } from '../registry/registry.js';
import { type AsyncJob, hookDigest } from './async-job.js';
import { runCommandHook } from './command-hook.js';
import type { DispatchContext, DispatchOptions } from './context.js';
import { runEvaluatorHook } from './evaluator-hook.js';
import type { Generation } from './generation.js';
import { runHttpHook } from './http-hook.js';
import { nestingDepth } from './input-shape.js';
import { runJsHooks } from './js-hook.js';
import { notifyStarted, startNotifier } from './record.js';
import { runTrustedHook } from './trusted-hook.js';

/** Steps all matchers and `if` filters of one dispatch may take (~20 ns each: about 5 ms). */
export const MATCH_STEPS_PER_DISPATCH = 250_000;
/** Steps one search may take (about 2 ms). */
export const MATCH_STEPS_PER_SEARCH = 100_000;

const tooLarge = (message: string, details: ErrorDetails['input_too_large']): HookAnswer => ({
  kind: 'failure',
  error: hookError('input_too_large', message, details),
  latencyMs: 0,
  queuedMs: 0,
});

/** The matching step budget of one dispatch: the fast path and every later match share it. */
export const matchBudget = () => new StepBudget(MATCH_STEPS_PER_DISPATCH, MATCH_STEPS_PER_SEARCH);

export class DispatchRun {
  /** Hooks in the order their answers were folded (one per record). */
  readonly folded: RegisteredHook[] = [];
  /** Async hook runs this dispatch queued: released when it has answered. */
  readonly asyncJobs: AsyncJob[] = [];
  #calls = 0;
  #jsonFor: HookInput | undefined;
  #json = '';
  readonly #depths = new WeakMap<HookInput, number>();

  constructor(
    readonly gen: Generation,
    readonly ctx: DispatchContext,
    readonly options: DispatchOptions,
    readonly def: EventDefinition,
    readonly registry: Registry,
    readonly sessionId: string,
    readonly budget: StepBudget,
    /** The once-state session (tenant and session id); undefined when the input named no session. */
    readonly onceSession: string | undefined = undefined,
  ) {}

  get aborted(): boolean {
    return this.options.signal?.aborted === true;
  }

  /** Whether the hook's matcher and filters accept this input (in doubt: yes). */
  accepts(h: RegisteredHook, input: HookInput): boolean {
    return this.registry.accepts(h, this.def, input, this.budget);
  }

  /** The `max_hook_calls` answer when `extra` more calls would pass the hook's scope limit. */
  overLimit(h: RegisteredHook, extra = 0): HookAnswer | undefined {
    const max = this.gen.scopeLimits[h.scope].maxHookCalls;
    if (this.#calls + extra < max) return undefined;
    const message = `limits.maxHookCalls (${max}) reached: this hook was not run`;
    return notRunAnswer(hookError('max_hook_calls', message, { limit: max }));
  }

  /** The input as JSON (serialized once per input object). */
  serialize(input: HookInput): string {
    if (this.#jsonFor !== input) {
      this.#json = JSON.stringify(input);
      this.#jsonFor = input;
    }
    return this.#json;
  }

  /** Why `input` is too large for a hook of this scope (rewrites are checked like the caller's input). */
  #tooLarge(h: RegisteredHook, input: HookInput): HookAnswer | undefined {
    const limits = this.gen.scopeLimits[h.scope];
    let depth = this.#depths.get(input);
    if (depth === undefined) {
      depth = nestingDepth(input, this.gen.limits.maxInputDepth);
      this.#depths.set(input, depth);
    }
    if (depth > limits.maxInputDepth) {
      return tooLarge(
        `input is nested ${depth > this.gen.limits.maxInputDepth ? 'more than ' : ''}${depth} levels deep, above limits.maxInputDepth (${limits.maxInputDepth})`,
        { limitDepth: limits.maxInputDepth, actualDepth: depth },
      );
    }
    const bytes = Buffer.byteLength(this.serialize(input));
    if (bytes <= limits.maxInputBytes) return undefined;
    return tooLarge(`input is ${bytes} bytes, above limits.maxInputBytes (${limits.maxInputBytes})`, {
      limitBytes: limits.maxInputBytes,
      actualBytes: bytes,
    });
  }

  /** Runs one hook (an async one is queued); never throws for a hook's failure. */
  runOne(hook: RegisteredHook, input: HookInput): Promise<HookAnswer> {
    if (isAsyncHook(hook) && this.ctx.async !== undefined) return this.#queue(hook, input);
    return this.execute(hook, input);
  }

  /** Queues an async hook with the input as it stands now (a copy: the caller may change its objects). */
  async #queue(hook: HookDefinition, input: HookInput): Promise<HookAnswer> {
    this.#calls++;
    const big = this.#tooLarge(hook, input);
    if (big !== undefined) return big;
    const job: AsyncJob = {
      asyncId: randomUUID(),
      tenant: this.options.tenant,
      sessionId: this.sessionId,
      event: this.def.name,
      hookId: hook.id,
      scope: hook.scope,
      digest: hookDigest(hook),
      input: JSON.parse(this.serialize(input)) as HookInput,
      enqueuedAt: Date.now(),
    };
    const answer = await this.ctx.async!.submit(job, hook, this.gen);
    if (answer.kind === 'queued') this.asyncJobs.push(job);
    return answer;
  }

  /** Runs one hook now, whatever it is (JS hooks through runJs); never throws for a hook's failure. */
  async execute(hook: RegisteredHook, input: HookInput): Promise<HookAnswer> {
    if (hook.type === 'js') return (await this.runJs([hook], input))[0]!;
    this.#calls++;
    const big = this.#tooLarge(hook, input);
    if (big !== undefined) return big;
    const { ctx, options } = this;
    if (hook.type === 'trusted') {
      return runTrustedHook(hook, input, ctx.pool, {
        signal: options.signal,
        tenant: options.tenant,
        onStart: () => notifyStarted(ctx, options, [hook]),
      });
    }
    const lane = {
      signal: options.signal,
      tenant: options.tenant,
      onStart: startNotifier(ctx, options, [hook]),
    };
    if (hook.type === 'http')
      return runHttpHook(hook, input, this.serialize(input), ctx.pool, lane, options.env);
    if (hook.type === 'prompt' || hook.type === 'agent')
      return runEvaluatorHook(hook, input, this.serialize(input), ctx.evaluators, ctx.pool, lane);
    return runCommandHook(hook, input, this.serialize(input), {
      pool: ctx.pool,
      root: ctx.root,
      env: options.env,
      signal: options.signal,
      tenant: options.tenant ?? '',
      isolationFloor: this.#tenantFloor(hook),
      onStart: startNotifier(ctx, options, [hook]),
      onTiming: options.onHookTiming,
    });
  }

  /** The operator's floor for a tenant's own hook (policy and trusted hooks keep their own). */
  #tenantFloor(hook: HookDefinition): IsolationLevel | undefined {
    const tenant = this.options.tenant;
    const floors = this.ctx.tenantIsolation;
    if (tenant === undefined || floors === undefined || hook.scope === 'policy' || hook.scope === 'trusted')
      return undefined;
    return floors.tenants.get(tenant) ?? this.gen.tenants.get(tenant)?.isolation ?? floors.default;
  }

  /**
   * Runs JS hooks of one scope (one, or adjacent ones of a serial chain) as one task on the QuickJS
   * lane. Returns one answer per hook run: fewer than `hooks` when one of them rewrote the input.
   */
  async runJs(
    hooks: readonly JsHookDefinition[],
    input: HookInput,
    rematchAfter: readonly boolean[] = [],
  ): Promise<HookAnswer[]> {
    this.#calls += hooks.length;
    const big = this.#tooLarge(hooks[0]!, input);
    if (big !== undefined) return hooks.map(() => big);
    const { ctx, options } = this;
    const answers = await runJsHooks(
      this.def,
      hooks,
      input,
      this.serialize(input),
      {
        pool: ctx.pool,
        signal: options.signal,
        tenant: options.tenant,
        maxInputBytes: this.gen.scopeLimits[hooks[0]!.scope].maxInputBytes,
        measureMemory: ctx.audit !== undefined || ctx.events?.has('hook.completed') === true,
        onStart: startNotifier(ctx, options, hooks),
        onTiming: options.onHookTiming,
      },
      rematchAfter,
    );
    // Hooks the worker left for the host to match again were not called.
    this.#calls -= hooks.length - answers.length;
    return answers;
  }
}
