// Compiles a JS hook module without running it (for `hookwarden validate`): syntax errors with file
// and line. Compile-only evaluation executes no hook code.
import { type QuickJSWASMModule, Scope } from 'quickjs-emscripten-core';
import { createQuickJsModule } from './quickjs-module.js';
import { MAX_STACK_BYTES } from './sandbox.js';

let shared: Promise<QuickJSWASMModule> | undefined;

/** Undefined when the module compiles; otherwise the error, e.g. `SyntaxError: … at hooks/a.js:3:7`. */
export async function compileModule(code: string, filename: string): Promise<string | undefined> {
  shared ??= createQuickJsModule(64 * 1024 * 1024).then((m) => m.module);
  const module = await shared;
  return Scope.withScope((scope) => {
    const rt = scope.manage(module.newRuntime());
    rt.setMaxStackSize(MAX_STACK_BYTES);
    const ctx = scope.manage(rt.newContext());
    const r = ctx.evalCode(code, filename, { type: 'module', compileOnly: true });
    if (r.error === undefined) {
      scope.manage(r.value);
      return undefined;
    }
    const e = ctx.dump(scope.manage(r.error)) as { name?: string; message?: string; stack?: string };
    const at = /([^\s()]+:\d+(?::\d+)?)/.exec(String(e.stack ?? ''))?.[1];
    return `${e.name ?? 'Error'}: ${e.message ?? ''}${at !== undefined ? ` at ${at}` : ''}`;
  });
}
