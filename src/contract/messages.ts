// One toolkit for messages about values (config entries, options, inputs, pack files): how a value
// received is shown, how a JSON path is written, and how a zod issue becomes "path: problem, got
// value". Dependency-free (zod is only a type here).

/** A plain object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Renders a received value for a message: JSON, truncated. Never throws: a value whose reading
 * throws (a proxy, a getter, a toString or toJSON that throws) is named by its kind.
 */
export function renderValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    try {
      text = String(value);
    } catch {
      text = `an unreadable ${typeof value}`;
    }
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Appends a key to a JSON path: `a.b`, or `a["odd key"]` when the key is not an identifier. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  const part = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
  if (base === '') return part.startsWith('"') ? `[${part}]` : part;
  return part.startsWith('"') ? `${base}[${part}]` : `${base}.${part}`;
}

/** The value at `path` inside `root` (undefined when the path leaves the value). */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const k of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** What a zod issue carries that messages need. */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * One message per zod issue, walking the full path from `base` and showing the leaf value received:
 * `{ path: "hooks.X[0].timeoutMs", message: "expected a positive integer, got -1" }`.
 */
export function issueMessages(
  issues: readonly IssueLike[],
  root: unknown,
  base = '',
): { path: string; message: string }[] {
  return issues.map((issue) => ({
    path: issue.path.reduce<string>((p, k) => joinPath(p, typeof k === 'number' ? k : String(k)), base),
    message: `${issue.message}, got ${renderValue(valueAt(root, issue.path))}`,
  }));
}
