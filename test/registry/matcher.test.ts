import { describe, expect, it } from 'vitest';
import { flattenToolInput, IfFilter } from '../../src/registry/if-filter.js';
import { ToolMatcher } from '../../src/registry/matcher.js';
import { OnceTracker } from '../../src/registry/registry.js';

describe('tool matchers', () => {
  it('match everything when "*", empty or missing', () => {
    for (const p of ['*', '', undefined, '  ']) expect(new ToolMatcher(p).matches('Anything')).toBe(true);
  });

  it('compare plain names and a|b lists exactly (Edit does not match NotebookEdit)', () => {
    const m = new ToolMatcher('Edit|Write');
    expect(m.kind).toBe('alternatives');
    expect(['Edit', 'Write', 'NotebookEdit', 'MultiEdit'].map((t) => m.matches(t))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(new ToolMatcher('Bash').matches('BashOutput')).toBe(false);
    // Nothing to test against: the matcher is met, as in Claude Code (and in doubt, run the guard).
    expect(new ToolMatcher('Bash').matches(undefined)).toBe(true);
  });

  it('search other patterns as regexes', () => {
    const m = new ToolMatcher('mcp__.*__create|Notebook.*');
    expect(m.kind).toBe('regex');
    expect(m.matches('mcp__github__create_issue')).toBe(true);
    expect(m.matches('NotebookEdit')).toBe(true);
    expect(m.matches('Bash')).toBe(false);
    expect(new ToolMatcher('^Bash$').matches('Bash')).toBe(true);
  });

  it('decide between names and a regex as Claude Code 2.1.333 does (its exact form, per event)', () => {
    // Empty names are dropped, as Claude Code drops them: "Bash|" is the name Bash, not a regex
    // with an empty alternative (which would match every tool).
    expect([...(new ToolMatcher('Bash|').names ?? [])]).toEqual(['Bash']);
    expect([...(new ToolMatcher('Bash, Edit').names ?? [])]).toEqual(['Bash', 'Edit']);
    expect(new ToolMatcher('|').names?.size).toBe(0);
    expect(new ToolMatcher('|').matches('Bash')).toBe(false);
    // On FileChanged and StopFailure only letters, digits, "_" and "|" are names: "a-b" is a regex.
    expect(new ToolMatcher('rate-limit', { event: 'StopFailure' }).kind).toBe('regex');
    expect(new ToolMatcher('rate-limit', { event: 'StopFailure' }).matches('x-rate-limit-y')).toBe(true);
    expect(new ToolMatcher('rate-limit', { event: 'PreToolUse' }).kind).toBe('exact');
  });

  it.each([
    ['^(?!Read$).*', 'lookahead'],
    ['(?<!x)Bash', 'lookbehind'],
    ['(?<=)Bash', 'lookbehind'],
    ['(Bash)\\1?', 'backreferences'],
    ['(?<t>Bash)\\k<t>?', 'backreferences'],
    ['Bash\\01?', 'octal'],
    ['Bash|\\c-', '\\c'],
    ['Bash{0,1001}', 'repetition bound'],
  ])('count %s (valid JavaScript the engine cannot evaluate) as matching every tool', (pattern, why) => {
    expect(() => new RegExp(pattern)).not.toThrow();
    expect(new RegExp(pattern).test('Bash')).toBe(true);
    const m = new ToolMatcher(pattern);
    expect(m.kind).toBe('unevaluable');
    expect(m.unevaluable).toContain('cannot evaluate it as JavaScript would');
    expect(m.unevaluable).toContain(why);
    expect(['Bash', 'Read', 'x', undefined].map((t) => m.matches(t))).toEqual([true, true, true, true]);
  });

  it('count a pattern that is not a valid regex as matching every tool, saying why', () => {
    const m = new ToolMatcher('Foo(|Bar');
    expect(m.kind).toBe('unevaluable');
    expect(m.unevaluable).toMatch(/^not a valid JavaScript regular expression/);
    expect(m.matches('Anything')).toBe(true);
  });

  it('read [], [^] and \\cA as JavaScript does', () => {
    expect(new ToolMatcher('Bash[]').matches('Bash')).toBe(false);
    expect(new ToolMatcher('^Ba[^]h$').matches('Ba\nh')).toBe(true);
    expect(new ToolMatcher('^Ba[]sh]$').matches('Ba]')).toBe(false);
    expect(new ToolMatcher('^\\cJ$').matches('\n')).toBe(true);
  });
});

describe('if filters', () => {
  it('glob the flattened tool input', () => {
    const f = new IfFilter('Bash(git *)');
    expect(f.matches('Bash', { command: 'git push origin main', description: 'push' })).toBe(true);
    expect(f.matches('Bash', { description: 'push', command: 'git push' })).toBe(true);
    expect(f.matches('Bash', { command: 'npm test' })).toBe(false);
    expect(f.matches('Edit', { command: 'git push' })).toBe(false);
  });

  it('support ?, Claude Code’s :* prefix form and /regex/i', () => {
    expect(new IfFilter('Write(*.ts)').matches('Write', { file_path: 'src/a.ts' }, undefined, '/p')).toBe(
      true,
    );
    expect(new IfFilter('Write(*.ts)').matches('Write', { file_path: 'src/a.tsx' }, undefined, '/p')).toBe(
      false,
    );
    expect(new IfFilter('Bash(npm run test:*)').matches('Bash', { command: 'npm run test -- --watch' })).toBe(
      true,
    );
    expect(new IfFilter('Bash(/rm\\s+-rf/i)').matches('Bash', { command: 'sudo RM  -RF /' })).toBe(true);
    expect(new IfFilter('Bash(v?)').matches('Bash', { command: 'v1' })).toBe(true);
  });

  it('match the tool alone when no pattern is given', () => {
    expect(new IfFilter('Bash').matches('Bash', {})).toBe(true);
    expect(new IfFilter('Bash(*)').matches('Bash', { x: 1 })).toBe(true);
  });

  it('that cannot be evaluated match (when in doubt, run the guard), within the tool part when it reads', () => {
    const lookahead = new IfFilter('Bash(/(?=x)/)');
    expect(lookahead.unevaluable).toMatch(/lookahead/);
    expect(lookahead.matches('Bash', { command: 'ls' })).toBe(true);
    expect(lookahead.matches('Read', { file_path: 'x' })).toBe(false);
    expect(new IfFilter('Bash(/x/g)').unevaluable).toMatch(/flags "g"/);
    expect(new IfFilter('Bash(/x/g)').matches('Bash', { command: 'ls' })).toBe(true);
    expect(new IfFilter('Bash(/(rm)\\1/)').matches('Bash', { command: 'ls' })).toBe(true);
    expect(new IfFilter('Write(/[/)').matches('Write', { file_path: 'a' })).toBe(true);
    // Not even the tool part reads: every call.
    const shapeless = new IfFilter('Bash(');
    expect(shapeless.unevaluable).toMatch(/expected "Tool"/);
    expect(shapeless.matches('Read', {})).toBe(true);
    expect(new IfFilter('Bash(/rm/)').unevaluable).toBeUndefined();
  });

  it('cannot be hung by a hostile pattern on a large input', () => {
    const f = new IfFilter('Bash(/(a+)+$/)');
    expect(f.matches('Bash', { command: `${'a'.repeat(200_000)}!` })).toBe(false);
  });

  it('flattens nested values depth-first in key order', () => {
    expect(flattenToolInput({ a: 'x', b: [1, { c: true }], d: null })).toEqual({
      values: ['x', '1', 'true'],
      complete: true,
    });
  });
});

describe('once', () => {
  const hook = (id: string) => `SessionStart\u0000${id}`;
  it('remembers per session, and forgets only the least recently active session past the bound', () => {
    const once = new OnceTracker(3);
    for (const s of ['a', 'b', 'c']) expect(once.firstTime(hook('h'), s)).toBe(true);
    expect(once.firstTime(hook('h'), 'a')).toBe(false); // a is now the most recent
    expect(once.firstTime(hook('h'), 'd')).toBe(true); // b, the least recent, is forgotten
    expect(once.sessions).toBe(3);
    expect(once.firstTime(hook('h'), 'a')).toBe(false);
    expect(once.firstTime(hook('h'), 'c')).toBe(false);
    expect(once.firstTime(hook('h'), 'b')).toBe(true);
  });
});
