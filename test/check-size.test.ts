// scripts/check-size.mjs (`npm run size`): every kind of function is measured, first line to last.
import { describe, expect, it } from 'vitest';
import { longFunctions, MAX_FUNCTION_LINES } from '../scripts/check-size.mjs';

/** A body of `n` lines in all, signature and closing brace included. */
const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('check-size', () => {
  const kinds: [string, (n: number) => string][] = [
    ['declaration', (n) => `export function named() {\n${body(n)}\n}\n`],
    ['arrow', (n) => `const named = () => {\n${body(n)}\n};\n`],
    ['function expression', (n) => `const named = function () {\n${body(n)}\n};\n`],
    ['method', (n) => `class C {\n  named() {\n${body(n)}\n  }\n}\n`],
    ['object method', (n) => `const o = {\n  named() {\n${body(n)}\n  },\n};\n`],
    ['callback', (n) => `run(() => {\n${body(n)}\n});\n`],
  ];
  for (const [kind, make] of kinds) {
    it(`flags a ${kind} one line over the limit and passes one at the limit`, () => {
      expect(longFunctions('x.ts', make(MAX_FUNCTION_LINES))).toEqual([]);
      const found = longFunctions('x.ts', make(MAX_FUNCTION_LINES + 1));
      expect(found.map((f) => f.lines)).toEqual([MAX_FUNCTION_LINES + 1]);
      if (kind !== 'callback') expect(found[0]?.name).toBe('named');
    });
  }
});
