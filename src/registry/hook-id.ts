// Stable hook ids and dedup keys, derived from content so they survive reloads.
import { createHash } from 'node:crypto';

/** Canonical JSON: object keys sorted, so equal specs hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A readable id for an unnamed hook: `<program or "js">-<8 hex of the spec digest>`. */
export function deriveHookId(label: string, dedupKey: string): string {
  const safe = label.replace(/[^A-Za-z0-9._-]/g, '').slice(0, 32) || 'hook';
  return `${safe}-${sha256Hex(dedupKey).slice(0, 8)}`;
}
