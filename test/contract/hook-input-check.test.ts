// The fast input check (hook-input-check.ts) must agree with the zod schema it stands in for: where
// it answers, zod accepts the same input and returns the same value — same keys in the same order,
// same prototypes, the same references for values passed through.
import { describe, expect, it } from 'vitest';
import { hookInputSchema } from '../../src/contract/hook-input.js';
import { checkHookInput } from '../../src/contract/hook-input-check.js';

const base = { event: 'BeforeTool', sessionId: 's1', cwd: '/tmp', timestamp: '2026-11-29T12:00:00.000Z' };
const shared = { nested: [1, { deep: true }] };
const symbolKeyed = { command: 'ls', [Symbol('s')]: 1 };
const nonEnumerable = Object.defineProperty({ command: 'ls' }, 'hidden', { value: 1, enumerable: false });
const withGetter = Object.defineProperty({}, 'command', { get: () => 'from-getter', enumerable: true });
class Custom {
  command = 'ls';
}

const VARIANTS: Record<string, unknown>[] = [
  {},
  { toolName: 'Bash', toolInput: { command: 'ls' } },
  { toolName: 'Bash', toolInput: JSON.parse('{"__proto__":{"polluted":true},"command":"ls"}') },
  { toolInput: Object.assign(Object.create(null), { b: 1, a: 2, 1: 'one' }) },
  { toolInput: symbolKeyed },
  { toolInput: nonEnumerable },
  { toolInput: withGetter },
  { toolInput: new Custom() },
  { toolInput: [1, 2] },
  { toolInput: 'ls' },
  { toolInput: null },
  { toolInput: { constructor: 1 } },
  { toolInput: undefined },
  { toolResult: shared, error: shared, usage: 1, cost: null, request: 'r', response: [1] },
  { prompt: 'hi', reason: 'r', ok: true, subagentName: 'a', subagentResult: shared },
  { prompt: 3 },
  { ok: 'yes' },
  { toolName: '' },
  { toolName: 'a\u0000b' },
  { toolName: 'x'.repeat(513) },
  { sessionId: 'x'.repeat(512) },
  { sessionId: 'bad\nid' },
  { sessionId: undefined },
  { cwd: '' },
  { timestamp: '2026-02-30T00:00:00Z' },
  { timestamp: '2026-11-29T12:00:00+01:00' },
  { timestamp: 'yesterday' },
  { event: '' },
  { caller: { kind: 'main', extra: 1 } },
  { caller: { kind: 'other' } },
  { compaction: { trigger: 'auto', tokens: 3, extra: true } },
  { caller: undefined, compaction: undefined, prompt: undefined },
  { zzz: 1, aaa: shared, 10: 'ten' },
  JSON.parse('{"__proto__":{"polluted":true},"extra":1}'),
  { [Symbol('top')]: 1 },
];

/** A value as a comparable description: copies by structure, passed-through values by identity. */
function describeValue(v: unknown, ids: Map<unknown, number>, copies: ReadonlySet<unknown>): unknown {
  if (typeof v !== 'object' || v === null || !copies.has(v)) {
    if (typeof v === 'object' && v !== null && !ids.has(v)) ids.set(v, ids.size);
    return typeof v === 'object' && v !== null ? `ref#${ids.get(v)}` : v;
  }
  const proto = Object.getPrototypeOf(v);
  return {
    proto: proto === null ? 'null' : proto === Object.prototype ? 'Object' : 'other',
    entries: Reflect.ownKeys(v).map((k) => [String(k), describeValue((v as never)[k], ids, copies)]),
  };
}

const parsed = (v: Record<string, unknown>) => new Set<unknown>([v, v.toolInput]);

describe('the fast input check', () => {
  it.each(VARIANTS.map((v, i) => [i, v] as const))('agrees with the schema (variant %i)', (_i, extra) => {
    const candidate = { ...base, ...extra };
    const fast = checkHookInput(candidate);
    const full = hookInputSchema.safeParse(candidate);
    if (fast === undefined) return;
    expect(full.success).toBe(true);
    const ids = new Map<unknown, number>();
    const data = full.data as Record<string, unknown>;
    const f = fast as Record<string, unknown>;
    expect(describeValue(f, ids, parsed(f))).toEqual(describeValue(data, ids, parsed(data)));
  });

  it('answers for the inputs dispatches usually carry', () => {
    for (const extra of [VARIANTS[0], VARIANTS[1], VARIANTS[13], VARIANTS[14], VARIANTS[32]])
      expect(checkHookInput({ ...base, ...extra })).toBeDefined();
  });

  it('leaves every invalid input to the schema (which words the error)', () => {
    for (const extra of VARIANTS) {
      const candidate = { ...base, ...extra };
      if (!hookInputSchema.safeParse(candidate).success) expect(checkHookInput(candidate)).toBeUndefined();
    }
  });
});
