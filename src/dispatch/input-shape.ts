// The first check of a dispatch (trust invariant 4, bad input never fails open): the input is an
// object nested at most `limits.maxInputDepth` levels deep. Walked without recursion, so no input
// can overflow a stack here; deeper inputs never reach JSON.stringify, the fold or a worker.
import { HookwardenError } from '../contract/hookwarden-error.js';

/** The depth of the deepest object or array in `value` (an object holding only primitives is 1), up to `stopAt`. */
export function nestingDepth(value: unknown, stopAt: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const stack: object[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > deepest) {
      deepest = depth;
      if (deepest > stopAt) return deepest;
    }
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return deepest;
}

/** Throws `invalid_input` unless `raw` is an object nested at most `maxDepth` levels. */
export function checkInputShape(raw: unknown, maxDepth: number): asserts raw is Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const got = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw;
    throw new HookwardenError('invalid_input', `invalid hook input: expected an object, got ${got}`);
  }
  const depth = nestingDepth(raw, maxDepth);
  if (depth > maxDepth) {
    throw new HookwardenError(
      'invalid_input',
      `invalid hook input: nested deeper than limits.maxInputDepth (${maxDepth} levels); flatten it or raise the limit in a policy file or the library's limits option`,
    );
  }
}
