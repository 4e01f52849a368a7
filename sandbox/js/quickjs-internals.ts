// Every access hookwarden makes into quickjs-emscripten's private fields, in one file. None of them is
// API: the emscripten module (its malloc, for the heap layout), the FFI and the runtime's and
// context's pointers (memory accounting without a second context), the lazily made handles and the
// registered runtimes and contexts (the image checks), and the runtime's host references (frozen so
// host functions live in every image). They were read from the version pinned below; an upgrade may
// rename or drop any of them, so every worker checks them when its first sandbox is built
// (checkQuickJsInternals) and refuses to start, naming what changed, rather than run hooks on a
// sandbox whose guarantees silently stopped holding.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import type { Malloc } from './heap-image.js';

/** The quickjs-emscripten-core version the fields below were read from (package.json pins it exactly). */
export const PINNED_QUICKJS_VERSION = '0.32.0';

interface ModuleInternals {
  module: Malloc;
  callbacks: { runtimeCallbacks: Map<number, unknown>; contextCallbacks: Map<number, unknown> };
}

interface RuntimeInternals {
  ffi: { QTS_RuntimeComputeMemoryUsage(rt: number, ctx: number): number };
  rt: { value: number };
  context: unknown;
  hostRefs: { delete(id: number): void; put(v: object): number };
}

const LAZY_CONTEXT_FIELDS = [
  '_global',
  '_BigInt',
  '_Symbol',
  '_SymbolIterator',
  '_SymbolAsyncIterator',
] as const;

type ContextInternals = Record<(typeof LAZY_CONTEXT_FIELDS)[number], unknown> & {
  ctx: { value: number };
  memory: { heapValueHandle(ptr: number): QuickJSHandle };
};

const moduleOf = (m: QuickJSWASMModule) => m as unknown as ModuleInternals;
const runtimeOf = (rt: QuickJSRuntime) => rt as unknown as RuntimeInternals;
const contextOf = (ctx: QuickJSContext) => ctx as unknown as ContextInternals;

/** The emscripten module behind a QuickJSWASMModule (checked: the layout is detected before any sandbox). */
export function emscriptenOf(m: QuickJSWASMModule): Malloc {
  const em = (moduleOf(m) as Partial<ModuleInternals>).module;
  if (typeof em?._malloc !== 'function' || typeof em._free !== 'function')
    throw internalsError(['module.module has no _malloc and _free']);
  return em;
}

/** QuickJS's memory accounting of `rt`, as an object of `ctx` (no second "system" context is made). */
export function computeMemoryUsage(rt: QuickJSRuntime, ctx: QuickJSContext): QuickJSHandle {
  const r = runtimeOf(rt);
  const c = contextOf(ctx);
  return c.memory.heapValueHandle(r.ffi.QTS_RuntimeComputeMemoryUsage(r.rt.value, c.ctx.value));
}

/** The handles quickjs-emscripten makes on first use and then keeps (compared across images). */
export function lazyHandles(rt: QuickJSRuntime, ctx: QuickJSContext): unknown[] {
  const c = contextOf(ctx);
  return [runtimeOf(rt).context, ...LAZY_CONTEXT_FIELDS.map((f) => c[f])];
}

/** Runtimes and contexts quickjs-emscripten has registered in the module (it forgets each on dispose). */
export function registeredCounts(m: QuickJSWASMModule): { runtimes: number; contexts: number } {
  const { callbacks } = moduleOf(m);
  return { runtimes: callbacks.runtimeCallbacks.size, contexts: callbacks.contextCallbacks.size };
}

/**
 * Host functions made so far stay referenced (the guest's collector freeing a function object in one
 * call must not drop it for the next image, which has it again); making another one throws.
 */
export function freezeHostRefs(rt: QuickJSRuntime): void {
  const refs = runtimeOf(rt).hostRefs;
  refs.delete = () => {};
  refs.put = () => {
    throw new Error('host functions are made only before the environment image is taken');
  };
}

let installed: string | undefined;

/** The installed quickjs-emscripten-core's version (its package.json, found next to its entry). */
export function installedQuickJsVersion(): string {
  if (installed === undefined) {
    const entry = createRequire(import.meta.url).resolve('quickjs-emscripten-core');
    const pkg = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    installed = String(pkg.version);
  }
  return installed;
}

/** What is missing or different from what this file relies on (empty: all present). */
export function quickJsInternalsProblems(
  m: QuickJSWASMModule,
  rt: QuickJSRuntime,
  ctx: QuickJSContext,
  version = installedQuickJsVersion(),
): string[] {
  const problems: string[] = [];
  if (version !== PINNED_QUICKJS_VERSION)
    problems.push(
      `quickjs-emscripten-core is ${version}, the fields were read from ${PINNED_QUICKJS_VERSION}`,
    );
  const fn = (v: unknown, name: string) =>
    typeof v !== 'function' && problems.push(`${name} is not a function`);
  const num = (v: unknown, name: string) => typeof v !== 'number' && problems.push(`${name} is not a number`);
  const map = (v: unknown, name: string) => !(v instanceof Map) && problems.push(`${name} is not a Map`);
  const has = (o: object, key: string, name: string) => !(key in o) && problems.push(`${name} is missing`);
  const mi = moduleOf(m) as Partial<ModuleInternals>;
  fn(mi.module?._malloc, 'module.module._malloc');
  fn(mi.module?._free, 'module.module._free');
  map(mi.callbacks?.runtimeCallbacks, 'module.callbacks.runtimeCallbacks');
  map(mi.callbacks?.contextCallbacks, 'module.callbacks.contextCallbacks');
  const ri = runtimeOf(rt) as Partial<RuntimeInternals>;
  fn(ri.ffi?.QTS_RuntimeComputeMemoryUsage, 'runtime.ffi.QTS_RuntimeComputeMemoryUsage');
  num(ri.rt?.value, 'runtime.rt.value');
  // The system context is assigned on first use (getSystemContext), never declared: read its code.
  const systemContext = (ri as { getSystemContext?: unknown }).getSystemContext;
  if (typeof systemContext !== 'function' || !String(systemContext).includes('this.context'))
    problems.push('runtime.getSystemContext no longer keeps its context in runtime.context');
  fn(ri.hostRefs?.put, 'runtime.hostRefs.put');
  fn(ri.hostRefs?.delete, 'runtime.hostRefs.delete');
  const ci = contextOf(ctx) as Partial<ContextInternals>;
  num(ci.ctx?.value, 'context.ctx.value');
  fn(ci.memory?.heapValueHandle, 'context.memory.heapValueHandle');
  for (const f of LAZY_CONTEXT_FIELDS) has(ctx, f, `context.${f}`);
  return problems;
}

const internalsError = (problems: readonly string[]) =>
  new Error(
    `the QuickJS sandbox relies on internals of quickjs-emscripten-core that changed: ${problems.join('; ')}. Install quickjs-emscripten-core@${PINNED_QUICKJS_VERSION} (as package.json pins it), or re-read sandbox/js/quickjs-internals.ts against the new version`,
  );

/** Throws, naming every problem, unless quickjs-emscripten still has what this file relies on. */
export function checkQuickJsInternals(m: QuickJSWASMModule, rt: QuickJSRuntime, ctx: QuickJSContext): void {
  const problems = quickJsInternalsProblems(m, rt, ctx);
  if (problems.length > 0) throw internalsError(problems);
}
