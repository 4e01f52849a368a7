// Copies untrusted JSON-shaped data into null-prototype objects so that nothing a hook returns can
// reach a prototype: `__proto__`, `constructor` and `prototype` keys are dropped. Dependency-free.

/** Maximum nesting accepted in hook output; deeper values are rejected, never recursed into. */
const MAX_OUTPUT_DEPTH = 128;

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

export class PlainJsonError extends Error {
  override readonly name = 'PlainJsonError';
}

/**
 * Returns a deep copy of `value` made of null-prototype objects, arrays and primitives.
 * Throws PlainJsonError for non-JSON values (functions, symbols, bigint, non-finite numbers) and for
 * nesting deeper than {@link MAX_OUTPUT_DEPTH}.
 */
export function toPlainJson(value: unknown, path = '$', depth = 0): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new PlainJsonError(`${path}: ${value} is not a JSON number`);
    return value;
  }
  if (typeof value !== 'object') throw new PlainJsonError(`${path}: a ${typeof value} is not JSON`);
  if (depth >= MAX_OUTPUT_DEPTH)
    throw new PlainJsonError(`${path}: nested deeper than ${MAX_OUTPUT_DEPTH} levels`);
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = toPlainJson(value[i], `${path}[${i}]`, depth + 1);
    return out;
  }
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) {
    if (FORBIDDEN.has(key)) continue;
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    out[key] = toPlainJson(v, `${path}.${key}`, depth + 1);
  }
  return out;
}

/**
 * A deep copy of a value that is already plain JSON (checked where it was made: a JS worker's folded
 * answer), rebuilt with null prototypes and every key kept. Structured clone turns null-prototype
 * objects into plain ones; the keys a FreeCode patch merged from the caller's tool input (which may
 * be `__proto__` or `constructor`: ordinary keys there) must survive the copy as they survive every
 * other hook type's answer.
 */
export function nullPrototypeCopy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(nullPrototypeCopy);
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) out[key] = nullPrototypeCopy((value as Record<string, unknown>)[key]);
  return out;
}
