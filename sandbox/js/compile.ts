// Compiles a JS hook module without running it (for `hookwarden validate`): syntax errors with file
// and line. Compile-only evaluation executes no hook code. It runs in a QuickJS lane worker (the
// `compile` task of worker.ts), never on the caller's thread: a source that exhausts the stack fails
// here with a message naming the limit, and one that parses for longer than the hook's deadline is
// stopped by the lane's backstop (QuickJS's parser never checks its interrupt).
import { type QuickJSWASMModule, Scope } from 'quickjs-emscripten-core';
import type { JsCompileResult } from '../../src/contract/js-task.js';
import { createQuickJsModule } from './quickjs-module.js';
import { MAX_STACK_BYTES } from './sandbox.js';

/** The compiler's own module: 64 MiB is ample for a parse, and it is replaced after a host failure. */
const COMPILE_HEAP_BYTES = 64 * 1024 * 1024;

const TOO_DEEP = `the source nests too deeply: compiling it exhausted the stack (${MAX_STACK_BYTES} bytes for QuickJS, within the worker thread's)`;

let shared: Promise<QuickJSWASMModule> | undefined;

/** Whether `code` compiles as a module; otherwise the error, e.g. `SyntaxError: … at hooks/a.js:3:7`. */
export async function compileModule(code: string, filename: string): Promise<JsCompileResult> {
  shared ??= createQuickJsModule(COMPILE_HEAP_BYTES).then((m) => m.module);
  const module = await shared;
  try {
    return compileWith(module, code, filename);
  } catch (err) {
    // The host's own failure (its stack): the module may be left in any state, so it is dropped.
    shared = undefined;
    if (err instanceof RangeError) return { kind: 'limit', limit: 'stack', message: TOO_DEEP };
    return {
      kind: 'limit',
      limit: 'memory',
      message: `the compiler failed: ${String((err as Error)?.message)}`,
    };
  }
}

function compileWith(module: QuickJSWASMModule, code: string, filename: string): JsCompileResult {
  return Scope.withScope((scope) => {
    const rt = scope.manage(module.newRuntime());
    rt.setMaxStackSize(MAX_STACK_BYTES);
    const ctx = scope.manage(rt.newContext());
    const r = ctx.evalCode(code, filename, { type: 'module', compileOnly: true });
    if (r.error === undefined) {
      scope.manage(r.value);
      return { kind: 'ok' };
    }
    const e = ctx.dump(scope.manage(r.error)) as { name?: string; message?: string; stack?: string };
    if (e.name === 'InternalError' && e.message === 'stack overflow')
      return { kind: 'limit', limit: 'stack', message: TOO_DEEP };
    const at = /([^\s()]+:\d+(?::\d+)?)/.exec(String(e.stack ?? ''))?.[1];
    return {
      kind: 'error',
      message: `${e.name ?? 'Error'}: ${e.message ?? ''}${at !== undefined ? ` at ${at}` : ''}`,
    };
  });
}
