import { describe, expect, it } from 'vitest';
import { readSessionEnv } from '../../src/contract/session-env.js';

describe("CLAUDE_ENV_FILE's export lines", () => {
  it('reads export lines, bare, single- and double-quoted values; a later line wins', () => {
    const r = readSessionEnv(
      [
        'export NODE_ENV=production',
        "export GREETING='hello world'",
        'export QUOTED="a \\"b\\" \\$c"',
        '# a comment',
        '',
        'PLAIN=1',
        'export NODE_ENV=test',
      ].join('\n'),
    );
    expect({ ...r.env }).toEqual({
      NODE_ENV: 'test',
      GREETING: 'hello world',
      QUOTED: 'a "b" $c',
      PLAIN: '1',
    });
    expect(r.ignored).toEqual([]);
    expect(Object.getPrototypeOf(r.env)).toBe(null);
  });

  it('lists lines that do not parse and refuses loader variables', () => {
    const r = readSessionEnv(
      [
        'export OK=1',
        'echo hi',
        'export BAD NAME=1',
        "export OPEN='x",
        'export LD_PRELOAD=/tmp/x.so',
        'export SPACED=a b',
      ].join('\n'),
    );
    expect({ ...r.env }).toEqual({ OK: '1' });
    expect(r.ignored).toEqual([
      'CLAUDE_ENV_FILE:2',
      'CLAUDE_ENV_FILE:3',
      'CLAUDE_ENV_FILE:4',
      'sessionEnv.LD_PRELOAD',
      'CLAUDE_ENV_FILE:6',
    ]);
  });

  it('keeps a __proto__ name an ordinary key', () => {
    const r = readSessionEnv('export __proto__=x');
    expect(Object.getPrototypeOf(r.env)).toBe(null);
    expect(Object.getOwnPropertyDescriptor(r.env, '__proto__')?.value).toBe('x');
  });
});
