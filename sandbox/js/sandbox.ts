// A fresh QuickJS runtime + context with hookwarden's guest environment, ready for one hook
// invocation: console.* and a seeded Math.random installed as host functions, JSON.parse,
// JSON.stringify and Object.freeze captured before any hook code can replace them. Date is pinned by
// host-clock.ts. Sandboxes are prepared while the worker is idle and each is used exactly once.
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import { capText, droppedLogsNote, type TextCaps, utf8Size } from '../../src/contract/text-caps.js';
import { readText } from './guest-text.js';
import type { QuickJsModule } from './quickjs-module.js';

/** Guest stack: well under a worker's 4 MiB host stack (a larger one lets the guest overflow the host). */
export const MAX_STACK_BYTES = 512 * 1024;
const LEVELS = ['log', 'info', 'warn', 'error', 'debug'] as const;

let liveRuntimes = 0;
let liveContexts = 0;

/** Runtimes and contexts created and not yet disposed, in this thread's current module. */
export function liveCounts(): { liveRuntimes: number; liveContexts: number } {
  return { liveRuntimes, liveContexts };
}

/** A replaced module takes whatever it could not free with it. */
export function resetLiveCounts(): void {
  liveRuntimes = 0;
  liveContexts = 0;
}

/** console.* lines of one invocation, within the task's caps (count, bytes per line, bytes in all). */
export class Logs {
  readonly lines: string[] = [];
  #bytes = 0;
  #dropped = 0;
  constructor(readonly caps: TextCaps) {}
  /** Whether another line may be kept; a line that may not is counted as dropped. */
  accept(): boolean {
    if (this.lines.length < this.caps.maxLogLines && this.#bytes < this.caps.maxLogBytes) return true;
    this.#dropped++;
    return false;
  }
  add(text: string): void {
    const line = capText(text, this.caps.maxLogLineBytes);
    const size = utf8Size(line, this.caps.maxLogLineBytes);
    if (this.#bytes + size > this.caps.maxLogBytes) {
      this.#dropped++;
      return;
    }
    this.#bytes += size;
    this.lines.push(line);
  }
  final(): string[] {
    if (this.#dropped === 0) return this.lines;
    return [...this.lines, droppedLogsNote(this.#dropped, this.caps)];
  }
}

/**
 * sfc32: the guest's Math.random, seeded per invocation (a pure function of hook id and input). The
 * seed is computed on the first call only: most hooks never draw a random number.
 */
class Sfc32 {
  #a = 0;
  #b = 0;
  #c = 0;
  #d = 0;
  #seed: (() => readonly [number, number, number, number]) | undefined;
  seedWith(seed: () => readonly [number, number, number, number]): void {
    this.#seed = seed;
  }
  next(): number {
    if (this.#seed !== undefined) {
      [this.#a, this.#b, this.#c, this.#d] = this.#seed();
      this.#seed = undefined;
      for (let i = 0; i < 12; i++) this.#step();
    }
    return this.#step();
  }
  #step(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
}

export class Sandbox {
  readonly rt: QuickJSRuntime;
  readonly ctx: QuickJSContext;
  /** Builtins captured before any hook code runs (a hook may replace the globals). */
  readonly json: QuickJSHandle;
  readonly parse: QuickJSHandle;
  readonly stringify: QuickJSHandle;
  readonly freeze: QuickJSHandle;
  /** For reading hook-controlled text with a cap (guest-text.ts). */
  readonly string: QuickJSHandle;
  readonly slice: QuickJSHandle;
  readonly reflectGet: QuickJSHandle;
  /** The console capture of the invocation (set by the runner with the task's caps). */
  logs: Logs | undefined;
  readonly random = new Sfc32();
  readonly #handles: QuickJSHandle[] = [];
  #disposed = false;

  constructor(readonly qjs: QuickJsModule) {
    this.rt = qjs.module.newRuntime();
    liveRuntimes++;
    this.rt.setMaxStackSize(MAX_STACK_BYTES);
    this.ctx = this.rt.newContext();
    liveContexts++;
    const c = this.ctx;
    const keep = (h: QuickJSHandle) => {
      this.#handles.push(h);
      return h;
    };
    // Everything is set up from the host: no guest source to compile on each fresh runtime.
    const con = keep(c.newObject());
    for (const level of LEVELS) {
      const fn = keep(
        c.newFunction(level, (...args) => {
          const logs = this.logs;
          if (logs === undefined || !logs.accept()) return;
          logs.add(consoleLine(this, level, args, logs.caps.maxLogLineBytes));
        }),
      );
      c.setProp(con, level, fn);
    }
    c.setProp(c.global, 'console', con);
    const math = keep(c.getProp(c.global, 'Math'));
    c.setProp(math, 'random', keep(c.newFunction('random', () => c.newNumber(this.random.next()))));
    this.json = keep(c.getProp(c.global, 'JSON'));
    this.parse = keep(c.getProp(this.json, 'parse'));
    this.stringify = keep(c.getProp(this.json, 'stringify'));
    const object = keep(c.getProp(c.global, 'Object'));
    this.freeze = keep(c.getProp(object, 'freeze'));
    this.string = keep(c.getProp(c.global, 'String'));
    const proto = c.getProp(this.string, 'prototype');
    this.slice = keep(c.getProp(proto, 'slice'));
    proto.dispose();
    const reflect = c.getProp(c.global, 'Reflect');
    this.reflectGet = keep(c.getProp(reflect, 'get'));
    reflect.dispose();
  }

  /**
   * Frees the context and runtime (every handle first: a leaked one aborts the runtime's disposal).
   * Returns false when QuickJS could not free them: the module must then be replaced.
   */
  dispose(): boolean {
    if (this.#disposed) return true;
    this.#disposed = true;
    for (const h of this.#handles.reverse()) if (h.alive) h.dispose();
    try {
      this.ctx.dispose();
      liveContexts--;
      this.rt.dispose();
      liveRuntimes--;
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * One console line: the arguments joined by spaces (objects as JSON), reading no more of them than
 * fits `maxBytes`.
 */
function consoleLine(sb: Sandbox, level: string, args: QuickJSHandle[], maxBytes: number): string {
  let line = level === 'log' ? '' : `[${level}] `;
  for (const [i, h] of args.entries()) {
    const room = maxBytes - line.length;
    if (room < 0) break;
    line += `${i > 0 ? ' ' : ''}${readText(sb, h, room + 1, true) ?? `[${sb.ctx.typeof(h)}]`}`;
  }
  return line;
}
