// The common case of validating a dispatched input, without running zod's object machinery on every
// dispatch (it was 10–15% of the main thread's time per JS dispatch): each field present is checked
// by its own schema from hook-input.ts, and the result is built exactly as zod builds it (declared
// fields in schema order, then the others in `for…in` order; `toolInput` copied without `__proto__`
// or non-enumerable keys). Anything unusual — symbol keys, a `caller` or `compaction` object (zod
// rebuilds them), a `toolInput` that is not a plain object — returns undefined: the caller then runs
// the full schema (which also words the errors). test/contract/hook-input-check.test.ts checks that
// both agree.
import { hookInputSchema } from './hook-input.js';
import type { HookInput } from './types.js';

const SHAPE = hookInputSchema.shape;
const KEYS = Object.keys(SHAPE) as (keyof typeof SHAPE)[];
const DECLARED: ReadonlySet<string> = new Set(KEYS);
/** Fields whose schema returns a new object: left to the full schema. */
const REBUILT: ReadonlySet<string> = new Set(['caller', 'compaction']);

/** `input` validated and copied as hookInputSchema would, or undefined when it cannot tell cheaply. */
export function checkHookInput(input: Record<string, unknown>): HookInput | undefined {
  if (Object.getOwnPropertySymbols(input).length > 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of KEYS) {
    const value = input[key];
    if (value === undefined) {
      if (!(key in input)) {
        if (!SHAPE[key].safeParse(undefined).success) return undefined;
        continue;
      }
    } else if (key === 'toolInput') {
      const copy = copyRecord(value);
      if (copy === undefined) return undefined;
      out[key] = copy;
      continue;
    } else if (REBUILT.has(key)) return undefined;
    if (!SHAPE[key].safeParse(value).success) return undefined;
    out[key] = value;
  }
  for (const key in input) {
    if (DECLARED.has(key) || key === '__proto__') continue;
    out[key] = input[key];
  }
  return out as HookInput;
}

/** A record as zod's `z.record(z.string(), z.unknown())` copies it, or undefined when unsure. */
function copyRecord(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const proto = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || Object.hasOwn(value, 'constructor')) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string') return undefined;
    if (key === '__proto__' || !Object.prototype.propertyIsEnumerable.call(value, key)) continue;
    out[key] = (value as Record<string, unknown>)[key];
  }
  return out;
}
