import { describe, expect, it } from 'vitest';
import { TEXT_CAPS } from '../../src/config/defaults.js';
import type { HookAnswer } from '../../src/contract/fold.js';
import { capAnswer, capText, TRUNCATED } from '../../src/contract/text-caps.js';

const bytes = (s: string) => Buffer.byteLength(s);

describe('capText', () => {
  it('keeps text that fits, in bytes', () => {
    expect(capText('abc', 3)).toBe('abc');
    expect(capText('é'.repeat(10), 20)).toBe('é'.repeat(10));
  });

  it.each([
    ['ASCII', 'a'],
    ['two-byte', 'é'],
    ['three-byte', '€'],
    ['astral (surrogate pairs)', '😀'],
  ])('cuts %s text within the cap, on a character boundary, marked', (_what, ch) => {
    for (const cap of [20, 21, 22, 23, 100, 4096]) {
      const out = capText(ch.repeat(5000), cap);
      expect(bytes(out)).toBeLessThanOrEqual(cap);
      expect(out.endsWith(TRUNCATED)).toBe(true);
      expect(out.slice(0, -TRUNCATED.length)).toBe(
        ch.repeat(out.slice(0, -TRUNCATED.length).length / ch.length),
      );
      expect(out).not.toContain('\ufffd');
    }
  });
});

describe('capAnswer', () => {
  const failure = (message: string, logs?: string[]): HookAnswer => ({
    kind: 'failure',
    error: { code: 'runtime_error', message },
    latencyMs: 1,
    queuedMs: 0,
    ...(logs !== undefined ? { logs } : {}),
  });

  it('returns the same answer when everything fits', () => {
    const a = failure('small');
    expect(capAnswer(a, TEXT_CAPS)).toBe(a);
  });

  it('is idempotent: capping a capped answer changes nothing', () => {
    const logs = Array.from({ length: 500 }, (_, i) => `${i}`.padEnd(3000, 'x'));
    const once = capAnswer(failure('m'.repeat(1e5), logs), TEXT_CAPS);
    expect(capAnswer(once, TEXT_CAPS)).toBe(once);
    expect(once.kind === 'failure' && bytes(once.error.message)).toBeLessThanOrEqual(
      TEXT_CAPS.maxMessageBytes,
    );
  });

  it('keeps output objects null-prototype when it cuts a reason', () => {
    const output = Object.assign(Object.create(null), { decision: 'deny', reason: 'r'.repeat(1e5) });
    const out = capAnswer({ kind: 'output', output, latencyMs: 0, queuedMs: 0 }, TEXT_CAPS);
    expect(out.kind === 'output' && Object.getPrototypeOf(out.output)).toBeNull();
    expect(out.kind === 'output' && bytes(out.output!.reason!)).toBeLessThanOrEqual(
      TEXT_CAPS.maxMessageBytes,
    );
    expect(output.reason).toHaveLength(1e5); // the hook's own object is not changed
  });
});
