import { describe, expect, it } from 'vitest';
import { flattenToolInput, IfFilter, IfFilterError } from '../../src/registry/if-filter.js';
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

  it('fall back to exact alternatives when the pattern is not a valid regex', () => {
    const m = new ToolMatcher('Foo(|Bar');
    expect(m.kind).toBe('alternatives');
    expect(m.regexError).toBe('missing ")"');
    expect(m.matches('Bar')).toBe(true);
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

  it('reject malformed filters and unsupported regex syntax at load', () => {
    expect(() => new IfFilter('Bash(')).toThrow(IfFilterError);
    expect(() => new IfFilter('Bash(/(?=x)/)')).toThrow(IfFilterError);
    expect(() => new IfFilter('Bash(/x/g)')).toThrow(/flags/);
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
