import { describe, expect, it } from 'vitest';
import { parseHookOutput } from '../../src/contract/parse-output.js';

describe('hook output validation', () => {
  it('treats nothing and null as proceed', () => {
    expect(parseHookOutput(undefined, 'BeforeTool')).toEqual({
      ok: true,
      output: undefined,
      unknownFields: [],
    });
    expect(parseHookOutput(null, 'BeforeTool')).toEqual({ ok: true, output: undefined, unknownFields: [] });
  });

  it('rejects non-objects and wrong field types with the field name', () => {
    expect(parseHookOutput([1], 'BeforeTool')).toMatchObject({
      ok: false,
      message: expect.stringContaining('array'),
    });
    expect(parseHookOutput({ decision: 'maybe' }, 'BeforeTool')).toMatchObject({
      ok: false,
      message: expect.stringContaining('decision'),
    });
    expect(parseHookOutput({ mutatedToolInput: 'x' }, 'BeforeTool')).toMatchObject({
      ok: false,
      message: expect.stringContaining('mutatedToolInput'),
    });
  });

  it('lists unknown keys instead of failing', () => {
    const r = parseHookOutput({ decison: 'deny' }, 'BeforeTool');
    expect(r).toMatchObject({ ok: true, unknownFields: ['decison'] });
  });

  it('never lets __proto__, constructor or prototype keys through, at any depth', () => {
    const raw = JSON.parse(
      '{"mutatedToolInput":{"__proto__":{"polluted":1},"constructor":{"x":1},"a":{"__proto__":{"b":2},"ok":1}}}',
    );
    const r = parseHookOutput(raw, 'BeforeTool');
    if (!r.ok) throw new Error(r.message);
    const m = r.output!.mutatedToolInput as Record<string, unknown>;
    expect(Object.keys(m)).toEqual(['a']);
    expect(Object.getPrototypeOf(m)).toBeNull();
    expect(Object.keys(m.a as object)).toEqual(['ok']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects output nested deeper than the limit without overflowing the stack', () => {
    const deep = JSON.parse(`{"mutatedRequest":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
    expect(parseHookOutput(deep, 'BeforeModel')).toMatchObject({
      ok: false,
      message: expect.stringContaining('nested deeper'),
    });
  });
});
