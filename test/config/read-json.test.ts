import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from '../../src/config/json-error-offset.js';
import { parseJsonText } from '../../src/config/read-json.js';

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
