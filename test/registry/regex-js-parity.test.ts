// The linear-time engine never reads a pattern differently from JavaScript: for every pattern it
// accepts, it answers as `RegExp.prototype.test` does (no flags), on generated patterns built from
// the constructs where the two are most likely to part (classes, escapes, Annex B literals,
// quantifiers, assertions). A pattern it cannot read exactly is refused, and a matcher made of one
// counts as "cannot evaluate" (registry/matcher.ts), never as something else.
import { describe, expect, it } from 'vitest';
import { LinearRegex } from '../../src/registry/regex/linear-regex.js';

const ATOMS = [
  'a',
  'b',
  'B',
  '.',
  '\\d',
  '\\D',
  '\\w',
  '\\W',
  '\\s',
  '\\S',
  '\\b',
  '\\B',
  '[ab]',
  '[^a]',
  '[]',
  '[^]',
  '[a-]',
  '[-a]',
  '[\\b]',
  '[\\B]',
  '[\\d-z]',
  '[\\w-]',
  '[\\]]',
  '[\\\\]',
  '\\c',
  '\\cA',
  '\\c1',
  '\\0',
  '\\01',
  '\\1',
  '\\8',
  '\\k',
  '\\x4',
  '\\x41',
  '\\u0041',
  '\\u{41}',
  '{',
  '}',
  '{1}',
  'a{,2}',
  ']',
  '(a)',
  '(?:a)',
  '(?<n>a)',
  '^',
  '$',
  '|',
  'a*',
  'a+?',
  'a??',
  'a{1,3}',
  'a{0}',
  '\\-',
  '\\/',
  '\\p{L}',
  '\\q',
  '[\\cA]',
  '[\\c_]',
  '[\\0]',
  '[\\01]',
  '\u2028',
  '(?=a)',
  '(?!a)',
  '(?<=a)',
  '(?<!a)',
  '\\n',
  '\\r',
  '[\\t-\\r]',
  'é',
  '😀',
  '[😀]',
  '(a|b)+',
  '()',
  '[[]',
];
const INPUTS = [
  '',
  'a',
  'b',
  'ab',
  'B',
  '\x01',
  '\x08',
  '\n',
  '\r',
  '\u2028',
  'c',
  'cA',
  '\\c',
  '\\c1',
  '0',
  '\x001',
  '8',
  'k',
  'x4',
  'A',
  'uuu',
  'u{41}',
  '{',
  '}',
  ']',
  'p{L}',
  'q',
  '-',
  '/',
  ' ',
  '\t',
  '_',
  'Bash',
  'a]',
  'z',
  '5',
  '\\',
  'aa',
  'é',
  '😀',
  '\ud83d',
  '[',
];

/** A small deterministic PRNG (mulberry32): the same patterns on every run. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the linear engine and JavaScript', () => {
  it('agree on every generated pattern the engine accepts', () => {
    const random = prng(23);
    const disagreements: string[] = [];
    let compared = 0;
    for (let i = 0; i < 20_000; i++) {
      let p = '';
      for (let n = 1 + Math.floor(random() * 3); n > 0; n--) p += ATOMS[Math.floor(random() * ATOMS.length)];
      let js: RegExp;
      try {
        js = new RegExp(p);
      } catch {
        continue; // not JavaScript: matchers check this first
      }
      let linear: LinearRegex;
      try {
        linear = new LinearRegex(p);
      } catch {
        continue; // refused: "cannot evaluate"
      }
      compared++;
      for (const s of INPUTS)
        if (js.test(s) !== linear.test(s)) disagreements.push(`${JSON.stringify(p)} on ${JSON.stringify(s)}`);
    }
    expect(compared).toBeGreaterThan(5_000);
    expect(disagreements).toEqual([]);
  });
});
