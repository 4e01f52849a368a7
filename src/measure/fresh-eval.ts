// One fresh-isolate evaluation, as anyone writes it around quickjs-emscripten: a new runtime and
// context with hookwarden's limits (32 MiB, 512 KiB stack, a 5 s deadline), an eval of the hook
// module, a call of its default export, and everything disposed. The `quickJsEval` baseline runs it on
// the calling thread; the naive pool of bench/ runs it in Piscina workers.
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';

/** Evaluates `code` (an ES module with a default-export function) and returns its JSON answer to `inputJson`. */
export function evalFresh(module: QuickJSWASMModule, code: string, inputJson: string): unknown {
  const rt = module.newRuntime({ memoryLimitBytes: 32 << 20, maxStackSizeBytes: 512 * 1024 });
  try {
    const deadline = Date.now() + 5000;
    rt.setInterruptHandler(() => Date.now() > deadline);
    const ctx = rt.newContext();
    try {
      const ns = ctx.unwrapResult(ctx.evalCode(code, 'hook.js', { type: 'module' }));
      const call = ctx.unwrapResult(
        ctx.evalCode('(ns, j) => JSON.stringify(ns.default(JSON.parse(j)))', 'call.js', { type: 'global' }),
      );
      const arg = ctx.newString(inputJson);
      const out = ctx.unwrapResult(ctx.callFunction(call, ctx.undefined, ns, arg));
      const answer: unknown = JSON.parse(ctx.getString(out));
      for (const h of [out, arg, call, ns]) h.dispose();
      return answer;
    } finally {
      ctx.dispose();
    }
  } finally {
    rt.dispose();
  }
}
