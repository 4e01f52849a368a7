// The naive pool every JS-hook benchmark compares with: what anyone gets by writing a few lines
// around quickjs-emscripten and Piscina. Each task gets a fresh runtime and context (fresh state per
// call), the same limits hookwarden sets, an eval of the hook module and a call of its default export.
import RELEASE_SYNC_IMPORT from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant } from 'quickjs-emscripten-core';

const RELEASE_SYNC = ((RELEASE_SYNC_IMPORT as { default?: QuickJSSyncVariant }).default ??
  RELEASE_SYNC_IMPORT) as QuickJSSyncVariant;
const QJS = await newQuickJSWASMModuleFromVariant(RELEASE_SYNC);

export default function run(task: { code: string; inputJson: string }): unknown {
  const rt = QJS.newRuntime({ memoryLimitBytes: 32 << 20, maxStackSizeBytes: 512 * 1024 });
  const deadline = Date.now() + 5000;
  rt.setInterruptHandler(() => Date.now() > deadline);
  const ctx = rt.newContext();
  try {
    const ns = ctx.unwrapResult(ctx.evalCode(task.code, 'hook.js', { type: 'module' }));
    const call = ctx.unwrapResult(ctx.evalCode('(ns, j) => JSON.stringify(ns.default(JSON.parse(j)))'));
    const arg = ctx.newString(task.inputJson);
    const out = ctx.unwrapResult(ctx.callFunction(call, ctx.undefined, ns, arg));
    const answer: unknown = JSON.parse(ctx.getString(out));
    for (const h of [out, arg, call, ns]) h.dispose();
    return answer;
  } finally {
    ctx.dispose();
    rt.dispose();
  }
}
