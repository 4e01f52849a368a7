// The first check of a dispatch (trust invariant 4, bad input never fails open): the input is an
// object nested at most `limits.maxInputDepth` levels deep. Walked without recursion, so no input
// can overflow a stack here; deeper inputs never reach JSON.stringify, the fold or a worker.
import { types } from 'node:util';
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

/** A value JSON cannot hold, met while walking the input. */
class NotJson extends Error {}

/** An object that is neither plain (Object.prototype or none) nor an array: a Date, a Map, a Promise… */
const exotic = (o: object) => {
  if (Array.isArray(o)) return false;
  const proto = Object.getPrototypeOf(o);
  return proto !== Object.prototype && proto !== null;
};

/**
 * The depth of `value`, like nestingDepth(), reading every value once: a BigInt (JSON.stringify
 * throws on it), a function, a symbol or a Proxy (structured clone refuses them) is a NotJson; a
 * getter that throws propagates its own error. `found.exotic` says whether it met an object that is
 * neither plain nor an array.
 */
function readableDepth(value: object, stopAt: number, found: { exotic: boolean }): number {
  if (types.isProxy(value)) throw new NotJson('a Proxy is not JSON');
  if (exotic(value)) found.exotic = true;
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
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      const kind = typeof child;
      if (kind === 'bigint' || kind === 'function' || kind === 'symbol')
        throw new NotJson(`a ${kind} is not JSON`);
      if (kind === 'object' && child !== null) {
        // A proxy can answer each read differently, and no copy (structured clone) takes it.
        if (types.isProxy(child)) throw new NotJson('a Proxy is not JSON');
        if (!found.exotic && exotic(child)) found.exotic = true;
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return deepest;
}

/**
 * Throws `invalid_input` unless `raw` is an object nested at most `maxDepth` levels whose values can
 * all be read as JSON: a getter that throws, a BigInt, a function, a symbol or a Proxy is the
 * caller's bad input (a typed error), never an exception from deep inside a dispatch. `undefined`
 * is left out for hooks, as JSON leaves it out.
 */
export function checkInputShape(raw: unknown, maxDepth: number): asserts raw is Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    const got = raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw;
    throw new HookwardenError('invalid_input', `invalid hook input: expected an object, got ${got}`);
  }
  let depth: number;
  const found = { exotic: false };
  try {
    depth = readableDepth(raw, maxDepth, found);
    // Not plain JSON all the way (a Promise, a WeakMap, an iterator…): trusted hooks get a
    // structured clone, so a value the clone refuses is bad input here, not a DataCloneError later.
    // Plain inputs (every caller that parsed JSON) never pay for the trial copy.
    if (found.exotic && depth <= maxDepth) structuredClone(raw);
  } catch (err) {
    const why =
      err instanceof NotJson
        ? err.message
        : `reading it threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
    throw new HookwardenError(
      'invalid_input',
      `invalid hook input: it cannot be read as JSON (${why.slice(0, 200)})`,
      {
        cause: err,
      },
    );
  }
  if (depth > maxDepth) {
    throw new HookwardenError(
      'invalid_input',
      `invalid hook input: nested deeper than limits.maxInputDepth (${maxDepth} levels); flatten it or raise the limit in a policy file or the library's limits option`,
    );
  }
}
