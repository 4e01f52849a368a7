import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from '../../src/config/json-error-offset.js';
import { parseConfigText, parseJsonText } from '../../src/config/read-json.js';

describe('JSON syntax errors', () => {
  it('are located exactly', () => {
    const cases: [string, number][] = [
      ['{"a": 1,}', 8],
      ['[1 2]', 3],
      ['{"a" 1}', 5],
      ['{"a": tru}', 6],
      ['{"a": "x\ny"}', 8],
      ['{"a": 1} x', 9],
      ['{"a": [', 7],
      ['', 0],
    ];
    for (const [text, offset] of cases) expect([text, jsonErrorOffset(text)]).toEqual([text, offset]);
    for (const ok of ['{}', '[]', '{"a":[1,{"b":null}],"c":"\\u00e9"}', ' 1 ', '-0.5e+3'])
      expect(jsonErrorOffset(ok)).toBe(-1);
  });

  it('are reported with line and column', () => {
    expect(parseJsonText('{\n  "a": 1,\n  "b": }')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^invalid JSON at line 3, column 8/),
    });
  });
});

describe('config files', () => {
  it('may be JSONC: comments and trailing commas', () => {
    const text = '{\n  // the guard\n  "hooks": { /* none yet */ },\n}\n';
    expect(parseConfigText(text, { comments: true })).toEqual({
      ok: true,
      value: { hooks: {} },
      duplicates: [],
    });
    expect(parseConfigText(text, { comments: false })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^invalid JSON at line 2, column 3: .*comments are not accepted/),
    });
  });

  it('report every key written twice with both positions (the value keeps the last, as JSON.parse)', () => {
    const text = '{\n  "hooks": {"A": [1]},\n  "limits": {"x": 1, "x": 2},\n  "hooks": {}\n}';
    const r = parseConfigText(text, { comments: true });
    expect(r).toMatchObject({ ok: true, value: { hooks: {}, limits: { x: 2 } } });
    expect(r.ok && r.duplicates).toEqual([
      { path: 'limits.x', first: { line: 3, column: 14 }, second: { line: 3, column: 22 } },
      { path: 'hooks', first: { line: 2, column: 3 }, second: { line: 4, column: 3 } },
    ]);
  });

  it('keep "__proto__" as an ordinary key, never as the prototype', () => {
    const r = parseConfigText('{"__proto__": {"hooks": {"x": 1}}}', { comments: true });
    expect(r.ok).toBe(true);
    const value = (r as { value: Record<string, unknown> }).value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(value.hooks).toBeUndefined();
    expect(Object.keys(value)).toEqual(['__proto__']);
  });

  it('nested too deeply to read is a syntax error, not a crash', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect(parseConfigText(deep, { comments: true })).toEqual({
      ok: false,
      kind: 'syntax',
      message: 'invalid JSON: nested too deeply to read',
    });
  });
});
