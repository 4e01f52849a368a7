// LinearRegex.couldMatch: whether a pattern matches SOME name of a shape with unknown parts (an MCP
// tool on a server the agent does not name). Exact on a curated table, and never below what a
// brute-force search over short strings finds with JavaScript's own RegExp.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LinearRegex } from '../../src/registry/regex/linear-regex.js';
import { ANY_RUN, type Shape } from '../../src/registry/regex/wildcard-search.js';

const ON_ANY_SERVER: Shape = ['mcp__', ANY_RUN, '__create_issue'];
const ANY_MCP: Shape = ['mcp__', ANY_RUN, '__', ANY_RUN];

describe('couldMatch', () => {
  it.each([
    ['mcp__github__.*', true],
    ['^mcp__github__create_issue$', true],
    ['^mcp__gh-1\\.x__create_issue$', true],
    ['^Bash$', false],
    // The server could be `github__delete…`, or `Bash`: a search finds either.
    ['^mcp__github__delete', true],
    ['Bash', true],
    ['^mcp__github__delete$', false],
    ['create', true],
    ['^mcp__[a-z]+__create_issue$', true],
    ['^mcp__\\d+__create_issue$', true],
    ['^mcp____create_issue$', false],
    ['\\bgithub\\b', true],
    ['^mcp__x\\by__create_issue$', false],
    ['^mcp__x\\By__create_issue$', true],
    ['issue$', true],
    ['issue_$', false],
    ['^(?:Bash|Read)$', false],
    ['.*', true],
    ['^mcp__.__create_issue$', true],
    ['^mcp__[^_]{3}__create_issue$', true],
    ['^mcp__(?:a|b)__create_issue$', true],
    ['^mcp__github__create_issue_v2$', false],
    ['^MCP__', false],
    ['(?i)^mcp', false],
  ])('%s on mcp__?__create_issue: %s', (pattern, want) => {
    let re: LinearRegex;
    try {
      re = new LinearRegex(pattern);
    } catch {
      return; // not a pattern the engine takes: not this test's business
    }
    expect(re.couldMatch(ON_ANY_SERVER)).toBe(want);
  });

  it.each([
    ['^mcp__github__.*', true],
    ['^Read$', false],
    ['^mcp__[^_]+__[^_]+$', true],
    ['^mcp__$', false],
  ])('%s on mcp__?__?: %s', (pattern, want) => {
    expect(new LinearRegex(pattern).couldMatch(ANY_MCP)).toBe(want);
  });

  it('is never below what a search of short strings with RegExp finds', () => {
    const atom = fc.constantFrom('a', 'b', '_', '.', '\\w', '\\W', '[ab]', '[^a]', '\\b', '\\B', '^', '$');
    const piece = fc.tuple(atom, fc.constantFrom('', '*', '+', '?', '{2}'));
    const pattern = fc
      .array(piece, { minLength: 1, maxLength: 5 })
      .map((ps) =>
        ps.map(([a, q]) => (a === '^' || a === '$' || a === '\\b' || a === '\\B' ? a : a + q)).join(''),
      );
    const alphabet = ['a', 'b', '_', '-', '.'];
    const strings = (len: number): string[] =>
      len === 0 ? [''] : strings(len - 1).flatMap((s) => alphabet.map((c) => s + c));
    const middles = [1, 2, 3].flatMap(strings);
    fc.assert(
      fc.property(pattern, fc.constantFrom('', 'a', '_'), fc.constantFrom('', 'b', '__'), (p, pre, post) => {
        let re: LinearRegex;
        try {
          re = new LinearRegex(p);
        } catch {
          return;
        }
        const js = new RegExp(p);
        const found = middles.some((m) => js.test(pre + m + post));
        if (found) expect(re.couldMatch([pre, ANY_RUN, post])).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
