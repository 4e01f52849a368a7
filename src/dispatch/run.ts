// One dispatch in flight: what every stage shares (the generation, the executor's parts, the
// caller's options, the event, the tenant's registry), and how one hook — or a run of adjacent JS
// hooks — is handed to its runner (runners.ts) with one call object (hook-call.ts). It owns the input's serialization (once per input object), the
// count of hook calls against `limits.maxHookCalls`, the matching step budget, and the order in
// which hooks were folded (for the record stage).

import { randomUUID } from 'node:crypto';
import { type Interval, nowMs } from '../audit/span-times.js';
import { raiseIsolation } from '../config/command-spec.js';
import type { IsolationLevel } from '../config/defaults.js';
import { type ErrorDetails, hookError } from '../contract/error-codes.js';
import type { EventDefinition } from '../contract/events.js';
import { type HookAnswer, notRunAnswer } from '../contract/fold.js';
import type { HookInput } from '../contract/types.js';
import { type HookDefinition, isAsyncHook, type JsHookDefinition } from '../registry/hook-definition.js';
import { StepBudget } from '../registry/regex/step-budget.js';
import type { RegisteredHook, Registry } from '../registry/registry.js';
import { type AsyncJob, hookDigest } from './async-job.js';
import type { DispatchContext, DispatchOptions } from './context.js';
import type { Generation } from './generation.js';
import type { HookCall } from './hook-call.js';
import { nestingDepth } from './input-shape.js';
import { runJsHooks } from './js-hook.js';
import { startNotifier } from './record.js';
import { runHook } from './runners.js';
import type { DispatchTrace } from './trace-dispatch.js';

/** Steps all matchers and `if` filters of one dispatch may take (~20 ns each: about 5 ms). */
const MATCH_STEPS_PER_DISPATCH = 250_000;
/** Steps one search may take (about 2 ms). */
const MATCH_STEPS_PER_SEARCH = 100_000;

const tooLarge = (message: string, details: ErrorDetails['input_too_large']): HookAnswer => ({
  kind: 'failure',
  error: hookError('input_too_large', message, details),
  latencyMs: 0,
  queuedMs: 0,
});

/** The matching step budget of one dispatch: the fast path and every later match share it. */
export const matchBudget = () => new StepBudget(MATCH_STEPS_PER_DISPATCH, MATCH_STEPS_PER_SEARCH);

/** What a DispatchRun is made of: its fields of the same names (the class holds their docs). */
export type DispatchRunParts = Pick<
  DispatchRun,
  'gen' | 'ctx' | 'options' | 'def' | 'registry' | 'sessionId' | 'budget'
> & { readonly onceSession?: string | undefined; readonly trace?: DispatchTrace | undefined };

export class DispatchRun {
  readonly gen: Generation;
  readonly ctx: DispatchContext;
  readonly options: DispatchOptions;
  readonly def: EventDefinition;
  readonly registry: Registry;
  readonly sessionId: string;
  readonly budget: StepBudget;
  /** The once-state session (tenant and session id); undefined when the input named no session. */
  readonly onceSession: string | undefined;
  /** The tenant, normalised here, where every dispatch and async run starts: '' for none. */
  readonly tenant: string;
  /** Hooks in the order their answers were folded (one per record). */
  readonly folded: RegisteredHook[] = [];
  /** Traced dispatches: when each folded answer's lane took it and its answer came back (`folded` order). */
  readonly foldedTimes: (Interval | undefined)[] | undefined;
  readonly #trace: DispatchTrace | undefined;
  /** Traced dispatches: each answer's interval (hook-span times). */
  readonly #times: WeakMap<HookAnswer, Interval> | undefined;
  /** Async hook runs this dispatch queued: released when it has answered. */
  readonly asyncJobs: AsyncJob[] = [];
  #calls = 0;
  #jsonFor: HookInput | undefined;
  #json = '';
  readonly #depths = new WeakMap<HookInput, number>();

  constructor(parts: DispatchRunParts) {
    this.gen = parts.gen;
    this.ctx = parts.ctx;
    this.options = parts.options;
    this.def = parts.def;
    this.registry = parts.registry;
    this.sessionId = parts.sessionId;
    this.budget = parts.budget;
    this.onceSession = parts.onceSession;
    this.tenant = parts.options.tenant ?? '';
    this.#trace = parts.trace;
    if (parts.trace !== undefined) {
      parts.trace.run = this;
      this.foldedTimes = [];
      this.#times = new WeakMap();
    }
  }

  /** The fold took `answer` of `hook` (fold-answer.ts): one record, in this order. */
  noteFolded(hook: RegisteredHook, answer: HookAnswer): void {
    this.folded.push(hook);
    this.foldedTimes?.push(this.#times!.get(answer));
  }

  /** The isolation a hook runs under, for its span: a command hook's level with the tenant floor. */
  isolationOf(hook: RegisteredHook): string | undefined {
    if (hook.type === 'js') return 'quickjs';
    if (hook.type === 'wasm') return 'wasm';
    if (hook.type !== 'command') return undefined;
    const c = raiseIsolation(hook.command, this.#tenantFloor(hook));
    return c.isolation === 'namespace' ? 'namespace' : c.containment === 'require' ? 'contained' : 'process';
  }

  /** Notes when `answers` ran (traced dispatches): a JS run's hooks one after another, the last ending at `endMs`. */
  #timed<T extends HookAnswer | HookAnswer[]>(answers: T, startMs: number): T {
    const list: HookAnswer[] = Array.isArray(answers) ? answers : [answers];
    let endMs = nowMs();
    for (let i = list.length - 1; i >= 0; i--) {
      const a = list[i]!;
      const ran = a.kind === 'not-run' ? 0 : a.latencyMs;
      const from = i === 0 ? startMs : Math.max(startMs, endMs - ran);
      this.#times!.set(a, { startMs: from, endMs });
      endMs = from;
    }
    return answers;
  }

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
    // Its run's span links to this dispatch's span, on whichever replica runs it.
    const queuedBy = this.#trace?.span.traceparent();
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
      ...(queuedBy !== undefined ? { queuedBy } : {}),
    };
    const startMs = this.#times === undefined ? 0 : nowMs();
    const answer = await this.ctx.async!.submit(job, hook, this.gen);
    if (this.#times !== undefined) this.#timed(answer, startMs);
    if (answer.kind === 'queued') this.asyncJobs.push(job);
    return answer;
  }

  /** Runs one hook now, whatever it is; never throws for a hook's failure. */
  async execute(hook: RegisteredHook, input: HookInput): Promise<HookAnswer> {
    this.#calls++;
    const big = this.#tooLarge(hook, input);
    if (big !== undefined) return big;
    if (this.#times === undefined) return runHook(this.#call(hook, input, [hook]));
    const startMs = nowMs();
    return this.#timed(await runHook(this.#call(hook, input, [hook])), startMs);
  }

  /** The call object of `hook` on `input`; `starting`: the hooks its lane turn starts (a JS run's). */
  #call<D extends RegisteredHook>(
    def: D,
    input: HookInput,
    starting: readonly RegisteredHook[],
  ): HookCall<D> {
    const { ctx, options, tenant } = this;
    const serialize = () => this.serialize(input);
    return {
      def,
      input,
      get inputJson() {
        return serialize();
      },
      tenant,
      lane: { signal: options.signal, tenant, onStart: startNotifier(ctx, options, starting) },
      ctx,
      event: this.def,
      limits: this.gen.scopeLimits[def.scope],
      isolationFloor: this.#tenantFloor(def),
      env: options.env,
      onTiming: options.onHookTiming,
    };
  }

  /** The operator's floor for a tenant's own hook (policy and trusted hooks keep their own). */
  #tenantFloor(hook: RegisteredHook): IsolationLevel | undefined {
    const { tenant } = this;
    const floors = this.ctx.tenantIsolation;
    if (tenant === '' || floors === undefined || hook.scope === 'policy' || hook.scope === 'trusted')
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
    const startMs = this.#times === undefined ? 0 : nowMs();
    const answers = await runJsHooks(this.#call(hooks[0]!, input, hooks), hooks, rematchAfter);
    if (this.#times !== undefined) this.#timed(answers, startMs);
    // Hooks the worker left for the host to match again were not called.
    this.#calls -= hooks.length - answers.length;
    return answers;
  }
}
