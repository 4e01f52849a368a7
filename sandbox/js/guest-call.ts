// What loading a hook and calling it share: starting a guest call under its limits, waiting for a
// promise, and turning a thrown value into an error (guest-errors.ts) from the facts of the call.
//
// Handles made during a call are not disposed one by one: the next call restores the whole heap
// from the hook's image, which frees everything the call made (heap-image.ts).
import type { QuickJSHandle } from 'quickjs-emscripten-core';
import type { HookError } from '../../src/contract/error-codes.js';
import type { TextCaps } from '../../src/contract/text-caps.js';
import { Logs } from './console-capture.js';
import { classify, type EngineKind, type HookLimits, type Phase, type ThrownParts } from './guest-errors.js';
import { locationOf, readThrown } from './guest-text.js';
import { setClock } from './host-clock.js';
import { MAX_STACK_BYTES, type Sandbox } from './sandbox.js';
import type { Seed } from './seeded-random.js';

export interface CallLimits extends HookLimits {
  readonly caps: TextCaps;
}

/** Arms the interrupt handler and the host functions for a guest call. */
export function beginCall(
  sb: Sandbox,
  o: { deadline: number; memoryBytes: number; nowMs: number; seed: () => Seed; logs: Logs },
): void {
  const s = sb.call;
  s.deadline = o.deadline;
  s.memoryBytes = o.memoryBytes;
  s.startBrk = sb.qjs.heap.brk();
  s.interrupted = undefined;
  s.logs = o.logs;
  s.random.seedWith(o.seed);
  setClock(o.nowMs);
  sb.qjs.heap.resetFacts();
  sb.touched();
}

/**
 * The heap-growth guard at the end of a call: the interrupt handler checks it only every so many
 * operations, and a few large allocations take few of them.
 */
export function grewPastLimit(sb: Sandbox, limits: CallLimits): HookError | undefined {
  if (sb.qjs.heap.brk() - sb.call.startBrk <= sb.call.memoryBytes) return undefined;
  return {
    code: 'memory_limit',
    message: `heap grew past memoryBytes (${limits.memoryBytes}) during the call`,
  };
}

/** Ends the call: its console capture. */
export function endCall(sb: Sandbox): Logs {
  const logs = sb.call.logs!;
  sb.call.logs = undefined;
  return logs;
}

export type Settled =
  | { kind: 'fulfilled'; value: QuickJSHandle }
  | { kind: 'rejected'; error: QuickJSHandle }
  | { kind: 'pending' };

/** Runs pending jobs until `handle` (a promise or a plain value) settles; the interrupt handler bounds it. */
export function settle(sb: Sandbox, handle: QuickJSHandle): Settled {
  for (;;) {
    const state = sb.ctx.getPromiseState(handle);
    if (state.type === 'fulfilled') return { kind: 'fulfilled', value: state.value };
    if (state.type === 'rejected') return { kind: 'rejected', error: state.error };
    if (!sb.rt.hasPendingJob()) return { kind: 'pending' };
    const jobs = sb.rt.executePendingJobs();
    // A job threw outside the promise (e.g. interrupted): surface it as the rejection.
    if (jobs.error) return { kind: 'rejected', error: jobs.error };
  }
}

/** The error of a value the guest threw (or a job failed with) in `phase`. */
export function failureOf(sb: Sandbox, thrown: QuickJSHandle, phase: Phase, limits: CallLimits): HookError {
  let engine: EngineKind | null = null;
  let text: ThrownParts | undefined;
  return classify(
    {
      phase,
      interrupted: () => sb.call.interrupted,
      growRefused: sb.qjs.heap.growRefused,
      stackNearLimit: () => sb.qjs.heap.stackReachedLimit(MAX_STACK_BYTES),
      engine: () => {
        if (engine !== null) return engine;
        const r = sb.ctx.callFunction(sb.engineKind, sb.ctx.undefined, thrown);
        const kind = r.error ? 0 : sb.ctx.getNumber(r.value);
        engine = kind === 1 ? 'internal' : kind === 2 ? 'syntax' : undefined;
        return engine;
      },
      text: () => {
        // Read under the deadline and within the caps: a getter that loops is a timeout, a huge
        // message never leaves the guest whole.
        if (text !== undefined) return text;
        const t = readThrown(sb, thrown, limits.caps.maxMessageBytes);
        text = { name: t.name, message: t.message, where: locationOf(t.stack) };
        return text;
      },
    },
    limits,
  );
}

/** A hook whose promise never settles, or that ran out of time waiting for it. */
export function stuckFailure(sb: Sandbox, limits: CallLimits): HookError {
  if (sb.call.interrupted !== undefined) {
    return classify(
      {
        phase: 'run',
        interrupted: () => sb.call.interrupted,
        growRefused: false,
        stackNearLimit: () => false,
        engine: () => undefined,
        text: () => ({ name: 'Error', message: 'interrupted', where: undefined }),
      },
      limits,
    );
  }
  return {
    code: 'runtime_error',
    message: 'the hook returned a promise that never settles (there are no timers or I/O in the sandbox)',
  };
}

/** A fresh console capture, headed by what the module's top level printed. */
export const logsFor = (caps: TextCaps, setup?: Logs) => new Logs(caps, setup);
