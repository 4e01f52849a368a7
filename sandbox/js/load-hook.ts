// Loading a JS hook: from the environment image, compile its module, evaluate its top level (with
// its pending jobs) and find its default export, then take the image every call of it starts from.
// The module's top level runs here, once per worker and module, not on every call: Date.now() reads
// 0 there and Math.random is seeded from the source (a pure function of the hook, like its calls).
import type { JsHookSpec } from '../../src/contract/js-task.js';
import { beginCall, endCall, failureOf, grewPastLimit, logsFor, settle, stuckFailure } from './guest-call.js';
import type { LoadResult } from './hook-images.js';
import { MAX_STACK_BYTES, type Sandbox } from './sandbox.js';
import { seedFor } from './seeded-random.js';

const NO_DEFAULT =
  'the module has no default export function: write export default function (input, ctx) { ... }';

/**
 * Loads `spec` under the first call's `deadline` (performance.now() ms). `cache`: whether the result
 * may stand for later calls (true for success and for failures that do not depend on the call).
 */
export function loadHook(
  sb: Sandbox,
  spec: JsHookSpec,
  deadline: number,
): { result: LoadResult; cache: boolean } {
  const started = performance.now();
  const c = sb.ctx;
  const limits = { ...spec, maxMessageBytes: spec.caps.maxMessageBytes };
  sb.use(sb.env);
  sb.rt.setMemoryLimit(spec.memoryBytes);
  beginCall(sb, {
    deadline,
    memoryBytes: spec.memoryBytes,
    nowMs: 0,
    seed: () => seedFor(spec.filename, spec.code),
    logs: logsFor(spec.caps),
  });
  const failed = (error: ReturnType<typeof failureOf>) => {
    const logs = endCall(sb).final();
    // Running out of time or memory may not happen again: only other failures stand for later calls.
    const cache =
      sb.call.interrupted === undefined && !sb.qjs.heap.growRefused && error.code !== 'memory_limit';
    return { result: { kind: 'failed' as const, error, logs }, cache };
  };
  const mod = c.evalCode(spec.code, spec.filename, { type: 'module' });
  if (mod.error) return failed(failureOf(sb, mod.error, 'compile', limits));
  const loaded = settle(sb, mod.value);
  if (loaded.kind === 'rejected') return failed(failureOf(sb, loaded.error, 'run', limits));
  if (loaded.kind === 'pending') return failed(stuckFailure(sb, limits));
  // Whatever the top level left pending runs now, not in some later call.
  while (sb.rt.hasPendingJob()) {
    const jobs = sb.rt.executePendingJobs();
    if (jobs.error && sb.call.interrupted !== undefined)
      return failed(failureOf(sb, jobs.error, 'run', limits));
  }
  const grew = grewPastLimit(sb, limits);
  if (grew !== undefined) return failed(grew);
  const fn = c.getProp(loaded.value, 'default');
  if (c.typeof(fn) !== 'function') return failed({ code: 'runtime_error', message: NO_DEFAULT });
  const setupLogs = endCall(sb);
  const image = sb.qjs.heap.capture(MAX_STACK_BYTES);
  sb.holds(image);
  const loadMs = performance.now() - started;
  return { result: { kind: 'loaded', image, fn, setupLogs, loadMs }, cache: true };
}
