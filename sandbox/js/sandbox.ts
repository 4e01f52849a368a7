// The guest environment of one QuickJS module: one runtime and one context, set up once and then
// snapshotted (the environment image) before any hook code runs. Every hook's image (hook-images.ts)
// starts from it, so all images share this runtime's and context's JavaScript wrappers, and every
// call starts from its hook's image again (heap-image.ts): no state survives between invocations.
//
// console.* and Math.random are host functions. A prelude compiled here captures what the host relies
// on before any hook can replace it (JSON.parse/stringify, Object.freeze, Reflect, String, Error.isError
// and the engine's error prototypes); `InternalError`, QuickJS's non-standard class for its own
// errors, is then removed from the guest's globals. Date is pinned by host-clock.ts.
import { type QuickJSContext, type QuickJSHandle, type QuickJSRuntime, Scope } from 'quickjs-emscripten-core';
import { consoleLine, type Logs } from './console-capture.js';
import type { GuestBuiltins } from './guest-text.js';
import type { HeapImage } from './heap-image.js';
import {
  checkQuickJsInternals,
  computeMemoryUsage,
  freezeHostRefs,
  lazyHandles,
  registeredCounts,
} from './quickjs-internals.js';
import type { ImagedModule } from './quickjs-module.js';
import { Sfc32 } from './seeded-random.js';

/** Guest stack: well under a worker's 4 MiB host stack (a larger one lets the guest overflow the host). */
export const MAX_STACK_BYTES = 512 * 1024;
const LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;

const PRELUDE = `(function (JSON, Object, Reflect, Error, String, InternalError, SyntaxError) {
  'use strict';
  const parse = JSON.parse, stringify = JSON.stringify, freeze = Object.freeze, ownKeys = Reflect.ownKeys;
  const isError = Error.isError, getPrototypeOf = Reflect.getPrototypeOf;
  const internalProto = InternalError.prototype, syntaxProto = SyntaxError.prototype;
  // Host-made JSON, parsed and deep-frozen without recursion and without a method a hook can replace.
  const frozen = (json) => {
    const root = parse(json);
    const todo = { __proto__: null, 0: root };
    let n = 1;
    while (n > 0) {
      const v = todo[--n];
      if (typeof v !== 'object' || v === null) continue;
      freeze(v);
      const keys = ownKeys(v);
      for (let i = 0; i < keys.length; i++) todo[n++] = v[keys[i]];
    }
    return root;
  };
  delete globalThis.InternalError;
  return {
    __proto__: null,
    invoke: (fn, inputJson, ctxJson) => fn(frozen(inputJson), frozen(ctxJson)),
    // Nothing (undefined), the answer's JSON, its length when longer than max, or false: not JSON.
    output: (value, max) => {
      if (value === undefined || value === null) return undefined;
      const text = stringify(value);
      if (typeof text !== 'string') return false;
      return text.length > max ? text.length : text;
    },
    // 1: an error QuickJS itself threw (InternalError), 2: a SyntaxError, 0: anything else.
    engineKind: (e) => (isError(e) ? (getPrototypeOf(e) === internalProto ? 1 : getPrototypeOf(e) === syntaxProto ? 2 : 0) : 0),
    JSON, stringify, String, slice: String.prototype.slice, get: Reflect.get,
  };
})(JSON, Object, Reflect, Error, String, InternalError, SyntaxError)`;

/** The call in progress, as the interrupt handler and the host functions see it. */
class CallState {
  /** performance.now() after which the call is interrupted. */
  deadline = 0;
  /** The heap's break when the call started, and how far it may grow past it. */
  startBrk = 0;
  memoryBytes = 0;
  interrupted: 'deadline' | 'memory' | undefined;
  logs: Logs | undefined;
  readonly random = new Sfc32();
}

export class Sandbox implements GuestBuiltins {
  readonly rt: QuickJSRuntime;
  readonly ctx: QuickJSContext;
  readonly call = new CallState();
  readonly invoke: QuickJSHandle;
  readonly output: QuickJSHandle;
  readonly engineKind: QuickJSHandle;
  readonly json: QuickJSHandle;
  readonly stringify: QuickJSHandle;
  readonly string: QuickJSHandle;
  readonly slice: QuickJSHandle;
  readonly reflectGet: QuickJSHandle;
  /** The environment before any hook: what every hook image is built from. */
  readonly env: HeapImage;
  /** The image the memory holds untouched, if any. */
  #current: HeapImage | undefined;
  /** quickjs-emscripten's lazily made handles as the environment image has them. */
  readonly #lazy: readonly unknown[];
  /** Runtimes and contexts quickjs-emscripten had registered when the environment image was taken. */
  readonly #registered: { runtimes: number; contexts: number };

  constructor(readonly qjs: ImagedModule) {
    const heap = qjs.heap;
    // No limit applies while the environment is set up (the interrupt handler runs from here on).
    this.call.deadline = Number.POSITIVE_INFINITY;
    this.call.memoryBytes = Number.POSITIVE_INFINITY;
    this.rt = qjs.module.newRuntime();
    this.rt.setMaxStackSize(MAX_STACK_BYTES);
    this.rt.setInterruptHandler(() => {
      const s = this.call;
      if (performance.now() > s.deadline) s.interrupted = 'deadline';
      else if (heap.brk() - s.startBrk > s.memoryBytes) s.interrupted = 'memory';
      return s.interrupted !== undefined;
    });
    this.ctx = this.rt.newContext();
    // The private fields used below are those of the pinned quickjs-emscripten: fail loudly if not.
    checkQuickJsInternals(qjs.module, this.rt, this.ctx);
    const c = this.ctx;
    // Handles quickjs-emscripten creates on first use: created now, they live in every image.
    for (const h of [c.global, c.undefined, c.null, c.true, c.false]) void h;
    const prelude = c.unwrapResult(c.evalCode(PRELUDE, 'hookwarden-prelude.js', { type: 'global' }));
    const get = (name: string) => c.getProp(prelude, name);
    this.invoke = get('invoke');
    this.output = get('output');
    this.engineKind = get('engineKind');
    this.json = get('JSON');
    this.stringify = get('stringify');
    this.string = get('String');
    this.slice = get('slice');
    this.reflectGet = get('get');
    Scope.withScope((scope) => {
      scope.manage(prelude);
      const con = scope.manage(c.newObject());
      for (const level of LEVELS) {
        const fn = scope.manage(
          c.newFunction(level, (...args) => {
            const logs = this.call.logs;
            if (logs === undefined || !logs.accept()) return;
            logs.add(consoleLine(this, level, args, logs.caps.maxLogLineBytes));
          }),
        );
        c.setProp(con, level, fn);
      }
      c.setProp(c.global, 'console', con);
      const math = scope.manage(c.getProp(c.global, 'Math'));
      const random = scope.manage(c.newFunction('random', () => c.newNumber(this.call.random.next())));
      c.setProp(math, 'random', random);
    });
    // What quickjs-emscripten makes on first use and then keeps (the context's BigInt and Symbol):
    // made now, they live in every image. (Its runtime's system context is never made: see memoryUsage.)
    c.newBigInt(0n).dispose();
    c.getWellKnownSymbol('iterator').dispose();
    freezeHostRefs(this.rt);
    this.#lazy = lazyHandles(this.rt, this.ctx);
    this.#registered = registeredCounts(this.qjs.module);
    this.env = heap.capture(MAX_STACK_BYTES);
    this.#current = this.env;
  }

  /** Makes the memory hold `image` untouched (restoring it unless it already does). */
  use(image: HeapImage): void {
    if (this.#current === image) return;
    this.qjs.heap.restore(image, MAX_STACK_BYTES);
    this.#current = image;
  }

  /** The memory now holds `image` untouched (it was just taken). */
  holds(image: HeapImage): void {
    this.#current = image;
  }

  /** Guest code ran: the memory no longer matches any image. */
  touched(): void {
    this.#current = undefined;
  }

  /**
   * Whether the JavaScript side still matches every image: no handle quickjs-emscripten keeps was
   * made after the environment image (it would point into memory the next restore frees).
   */
  intact(): boolean {
    const now = lazyHandles(this.rt, this.ctx);
    return now.every((v, i) => v === this.#lazy[i]);
  }

  /**
   * QuickJS's memory accounting of the runtime, as a guest object. quickjs-emscripten's
   * computeMemoryUsage() would make and keep a second "system" context on first use (a handle into
   * the memory of whichever call made it, and ~4–20 ms of a worker's start if made up front); the
   * sandbox's own context serves as well.
   */
  memoryUsage(): QuickJSHandle {
    return computeMemoryUsage(this.rt, this.ctx);
  }

  /** Runtimes and contexts alive besides the environment's: leaks (must be 0). */
  leaks(): { runtimes: number; contexts: number } {
    const now = registeredCounts(this.qjs.module);
    return {
      runtimes: now.runtimes - this.#registered.runtimes,
      contexts: now.contexts - this.#registered.contexts,
    };
  }
}
