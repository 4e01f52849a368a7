import { describe, expect, it } from 'vitest';
import { LinearRegex, RegexSyntaxError } from '../../src/registry/regex/linear-regex.js';
import { StepBudget } from '../../src/registry/regex/step-budget.js';

const PATTERNS = [
  'Bash',
  '^Bash$',
  'Edit|Write',
  '^(Edit|Write|MultiEdit)$',
  'Notebook.*',
  'mcp__.*__create',
  '^mcp__github__',
  'Slack__slack_(send|schedule|update)',
  'a{2,3}b',
  'colou?r',
  '[A-Z][a-z]+Tool',
  '\\bgit\\b',
  '\\d{3}-\\d{4}',
  '[^a-z]+',
  '(?:ab)+c',
  '(?<name>x)y',
  'a.c',
  '\\s+',
  '^$',
  'x*',
  '(a|b)*abb',
  '[\\w.-]+@[\\w-]+\\.com',
  'ab{0}c',
  '\\.env$',
  '[-a]',
  '[a-]',
  'a|',
  '\\x41\\u0042',
  '[\\]]',
  'a{,2}',
];
const INPUTS = [
  '',
  'Bash',
  'BashOutput',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
  'Write',
  'mcp__github__create_issue',
  'Slack__slack_send_message',
  'aab',
  'aaab',
  'ab',
  'color',
  'colour',
  'ReadTool',
  'use git here',
  'digit',
  '555-1234',
  'ABC',
  'ababc',
  'xy',
  'abc',
  'a\nc',
  '  ',
  'abb',
  'aabb',
  'me@example.com',
  'ac',
  'config/.env',
  '-',
  'AB',
  ']',
  'a{,2}',
  'x',
];

describe('linear-time regex engine', () => {
  it('agrees with RegExp.prototype.test on the supported syntax', () => {
    for (const p of PATTERNS) {
      const ours = new LinearRegex(p);
      const native = new RegExp(p);
      for (const s of INPUTS) expect([p, s, ours.test(s)]).toEqual([p, s, native.test(s)]);
    }
  });

  it('supports case-insensitive matching', () => {
    const re = new LinearRegex('git push', { ignoreCase: true });
    expect(re.test('GIT PUSH origin')).toBe(true);
    expect(re.test('git pull')).toBe(false);
  });

  it('matches catastrophic-backtracking patterns in linear time', () => {
    const evil = [
      '(a+)+$',
      '(a|a)*b',
      '(a|aa)+$',
      '(\\w+\\s?)+$',
      '(.*a){12}$',
      '^(([a-z])+.)+[A-Z]([a-z])+$',
    ];
    const subject = `${'a'.repeat(50_000)}!`;
    const started = performance.now();
    for (const p of evil) expect(new LinearRegex(p).test(subject)).toBe(false);
    // V8 would take longer than the age of the universe on the first one; this is a hang guard only.
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('refuses backreferences and lookaround with a message that says why', () => {
    for (const p of ['(a)\\1', '(?=a)', '(?!a)', '(?<=a)b', '(?<!a)b', '\\k<n>']) {
      expect(() => new LinearRegex(p), p).toThrow(RegexSyntaxError);
    }
    expect(() => new LinearRegex('(?=x)')).toThrow(/linear time/);
  });

  it('refuses malformed patterns and oversized programs', () => {
    for (const p of ['(a', 'a)', '[a', '*a', 'a{3,1}', 'a{5000}', '[z-a]'])
      expect(() => new LinearRegex(p), p).toThrow(RegexSyntaxError);
    expect(() => new LinearRegex('(a{1000}){1000}')).toThrow(/too large/);
  });
});

describe('the required-literal check', () => {
  it('answers no at once when the input lacks a literal every match needs, and never changes an answer', () => {
    // (V8's own RegExp is the reference: inputs stay small enough for its backtracking.)
    const cases: [string, boolean, string[]][] = [
      ['^[\\s\\S]*\\.env$', false, ['a/.env', 'x.env.bak', '.env', 'env']],
      ['(a|aa){3}b', false, ['aaab', 'aaaaaab', 'aaaa', 'b', 'ab']],
      ['rm\\s+-rf', false, ['rm -rf /', 'rm  -rf', 'rmrf', 'echo rm -r']],
      ['DROP TABLE', true, ['drop table users', 'DROP table', 'dropt able']],
    ];
    for (const [pattern, ignoreCase, inputs] of cases) {
      const re = new LinearRegex(pattern, { ignoreCase });
      const flags = ignoreCase ? 'i' : '';
      for (const input of inputs)
        expect([pattern, input, re.test(input)]).toEqual([
          pattern,
          input,
          new RegExp(pattern, flags).test(input),
        ]);
    }
    // A non-ASCII literal under ignoreCase is not pre-checked: the engine folds ſ to S, lowercasing
    // the input would not (V8's RegExp disagrees with both; the engine's own answer must stand).
    expect(new LinearRegex('ſ', { ignoreCase: true }).test('S')).toBe(true);
    // The pathological pattern answers without walking the NFA over a long input.
    const budget = new StepBudget(10, 10);
    expect(new LinearRegex('(a|aa){700}b').test('a'.repeat(300_000), budget)).toBe(false);
    expect(budget.remaining).toBe(10);
  });
});
