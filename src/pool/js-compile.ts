// Compiling a JS hook's module on a QuickJS lane worker (hookwarden validate): the same worker, stack
// limit and deadline as a call of the hook. QuickJS's parser never checks its interrupt, so a source
// that parses for longer than the hook's deadline is stopped as a call is: the task is aborted at the
// deadline + the lane's grace, and Piscina terminates the thread.
import type { Piscina } from 'piscina';
import type { JsCompileRequest, JsCompileResult } from '../contract/js-task.js';
import { BatchAbort } from './batch-abort.js';

/** Compiles `request` on `pool` within `deadlineMs` + `graceMs`; never throws. */
export async function compileOn(
  pool: Piscina,
  request: JsCompileRequest,
  deadlineMs: number,
  graceMs: number,
): Promise<JsCompileResult> {
  const abort = new BatchAbort();
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    abort.abort(new Error('backstop'));
  }, deadlineMs + graceMs);
  try {
    return (await pool.run(request, { name: 'compile', signal: abort })) as JsCompileResult;
  } catch (err) {
    if (late)
      return {
        kind: 'limit',
        limit: 'deadline',
        message: `compiling took longer than the hook's deadline (${deadlineMs} ms + ${graceMs} ms grace); its worker thread was terminated`,
      };
    return {
      kind: 'limit',
      limit: 'memory',
      message: `the compiler's worker failed: ${String((err as Error)?.message)}`,
    };
  } finally {
    clearTimeout(timer);
  }
}
