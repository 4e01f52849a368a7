// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash ${NAME} expansions, written as in env files
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SESSION_ENV_REFUSED } from '../../src/contract/refused-env.js';
import { judgeSessionEnv, type SessionEnvRule } from '../../src/contract/session-env.js';

const PROJECT = '/work/proj';
const rule = (over: Partial<SessionEnvRule> = {}): SessionEnvRule => ({
  writer: { scope: 'project', sandboxed: false },
  allow: new Set(),
  pathDirs: [],
  hostPath: ['/usr/local/bin', '/usr/bin', '/bin'],
  home: '/home/u',
  inProject: (d) => d === PROJECT || d.startsWith(`${PROJECT}/`),
  ...over,
});
const file = (...lines: string[]) => ({ file: { text: lines.join('\n'), truncated: false } });
const policy = rule({ writer: { scope: 'policy', sandboxed: false } });
const nvm = rule({ pathDirs: ['/home/u/.nvm/versions', '/opt/tools'] });

/** PATH after bash runs `script` with the host PATH. */
const bashPath = (script: string) =>
  spawnSync('bash', ['-c', `${script}\nprintf %s "$PATH"`], {
    encoding: 'utf8',
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/home/u' },
  }).stdout;

describe('the session-env rule: what a hook may set for the session', () => {
  it('keeps assignments as the bash they were, literal values in env, and names each refusal with why', () => {
    const r = judgeSessionEnv(
      file(
        'export NODE_ENV=production',
        "export GREETING='hello world'",
        'export NVM_DIR="$HOME/.nvm"',
        'source ~/.nvm/nvm.sh',
        'export BASH_ENV=/work/proj/.x',
        'export NODE_ENV=test',
      ),
      rule(),
    );
    expect(r.script).toBe(
      [
        'export NODE_ENV=production',
        "export GREETING='hello world'",
        'export NVM_DIR="$HOME/.nvm"',
        'export NODE_ENV=test',
      ].join('\n'),
    );
    expect({ ...r.env }).toEqual({ NODE_ENV: 'test', GREETING: 'hello world' });
    expect(Object.getPrototypeOf(r.env)).toBe(null);
    expect(r.ignored).toEqual(['CLAUDE_ENV_FILE:4', 'CLAUDE_ENV_FILE:5']);
    expect(r.warnings).toEqual([
      'CLAUDE_ENV_FILE line 4 (source): runs a command, which a hook may not add to the session: not applied',
      expect.stringMatching(
        /^CLAUDE_ENV_FILE line 5 \(BASH_ENV\): "BASH_ENV" changes what later commands of the session run, and no "sessionEnv": \{"allow": \["BASH_ENV"\]\} in a policy file consents to it: not applied$/,
      ),
    ]);
  });

  it('refuses every variable of the class that changes what later commands run, from any scope, unless the policy allows it', () => {
    const names = [
      ...SESSION_ENV_REFUSED,
      'GIT_CONFIG_KEY_0',
      'NPM_CONFIG_PREFIX',
      'DYLD_INSERT_LIBRARIES',
      'CARGO_BUILD_RUSTC_WRAPPER',
      'node_options',
    ];
    for (const writer of [
      { scope: 'project', sandboxed: false },
      { scope: 'user', sandboxed: false },
      { scope: 'policy', sandboxed: false },
      { scope: 'policy', sandboxed: true },
    ] as const) {
      const r = judgeSessionEnv(file(...names.map((n) => `export ${n}=/work/proj/x`)), rule({ writer }));
      expect([writer, r.script, r.ignored.length]).toEqual([writer, '', names.length]);
    }
    const allowed = judgeSessionEnv(
      file('export NODE_OPTIONS=--max-old-space-size=4096'),
      rule({ allow: new Set(['NODE_OPTIONS']) }),
    );
    expect([allowed.script, allowed.ignored]).toEqual(['export NODE_OPTIONS=--max-old-space-size=4096', []]);
  });

  it('never the loader variables, whatever the policy says', () => {
    const r = judgeSessionEnv(
      file('export LD_PRELOAD=/x.so', 'export GLIBC_TUNABLES=x'),
      rule({
        allow: new Set(['LD_PRELOAD', 'GLIBC_TUNABLES']),
        writer: { scope: 'trusted', sandboxed: false },
      }),
    );
    expect([r.script, r.ignored]).toEqual(['', ['CLAUDE_ENV_FILE:1', 'CLAUDE_ENV_FILE:2']]);
  });

  it('PATH from an unsandboxed policy hook: as written, $PATH kept', () => {
    const r = judgeSessionEnv(
      file('export PATH="/opt/x/bin:$PATH"', 'export PATH=$PATH:./node_modules/.bin'),
      policy,
    );
    expect(r.ignored).toEqual([]);
    expect(bashPath(r.script)).toBe('/opt/x/bin:/usr/local/bin:/usr/bin:/bin:./node_modules/.bin');
  });

  it('PATH from any other hook: only directories the policy admits (sessionEnv.pathDirs) or the host already has', () => {
    const added = [
      'export PATH="$HOME/.nvm/versions/node/v20.1.0/bin:$PATH"',
      'export PATH="$PATH:/opt/tools/bin"',
      'export PATH=~/.nvm/versions/node/v22/bin:$PATH',
      'export PATH="/opt/tools/x${PATH:+:$PATH}"',
      'PATH=/opt/tools/y:$PATH',
      'export PATH+=:/opt/tools/z',
      // `export -p`, as a hook that diffs its environment writes it: every directory spelled out.
      'declare -x PATH="/home/u/.nvm/versions/node/v20/bin:/usr/local/bin:/usr/bin:/bin"',
      'export NVM_BIN=/home/u/.nvm/versions/node/v20/bin',
      'export PATH="$NVM_BIN:$PATH"',
    ];
    for (const line of added) {
      const r = judgeSessionEnv(file(line), nvm);
      // Statements that need an earlier one are judged in their file.
      if (line.includes('$NVM_BIN')) continue;
      expect([line, r.ignored, r.script]).toEqual([line, [], line]);
    }
    const all = judgeSessionEnv(file(...added), nvm);
    expect(all.ignored).toEqual([]);
    expect(bashPath(all.script).split(':')[0]).toBe('/home/u/.nvm/versions/node/v20/bin');
    // Without the policy's consent, none of them (the ones that add a directory).
    for (const line of added.filter((l) => l.includes('PATH') && !l.startsWith('declare'))) {
      expect([line, judgeSessionEnv(file(line), rule()).ignored]).toEqual([line, ['CLAUDE_ENV_FILE:1']]);
    }
  });

  it.each([
    [
      'the project directory first (finding 8 of issue 23)',
      'export PATH=$CLAUDE_PROJECT_DIR/.tools:$PATH',
      /cannot resolve/,
    ],
    [
      'a project directory spelled out, even under pathDirs',
      'export PATH=/work/proj/.tools:$PATH',
      /inside the project/,
    ],
    ['a relative directory', 'export PATH="./node_modules/.bin:$PATH"', /relative/],
    ['an empty entry (the working directory)', 'export PATH=":$PATH"', /empty PATH entry/],
    [
      'a directory no pathDirs admits',
      'export PATH=/tmp/evil:$PATH',
      /not under the policy's sessionEnv.pathDirs/,
    ],
    ['$PATH glued to other text', 'export PATH=/opt/tools$PATH', /joins \$PATH/],
    ['a variable set by a refused line', 'source x\nexport PATH="$X/bin:$PATH"', /cannot resolve/],
    ['.. out of an admitted directory', 'export PATH=/opt/tools/../../tmp:$PATH', /not under/],
    [
      'a ~ after a colon (zsh keeps it as a relative directory)',
      'export PATH=$PATH:~/.nvm/versions/x/bin',
      /~ after a colon.*write \$HOME/,
    ],
  ])('PATH refused: %s', (_what, text, why) => {
    const r = judgeSessionEnv(
      { file: { text, truncated: false } },
      rule({
        pathDirs: ['/opt/tools', '/work', '/home/u/.nvm'],
        writer: { scope: 'policy', sandboxed: true },
      }),
    );
    expect(r.script).toBe('');
    expect(r.warnings.at(-1)).toMatch(why);
  });

  it('a PATH that keeps the host directories, reordered or not, needs no consent; `export PATH` neither', () => {
    const r = judgeSessionEnv(file('export PATH=/bin:/usr/bin:$PATH', 'export PATH'), rule());
    expect(r.ignored).toEqual([]);
  });

  it('an export line with one refused variable is refused whole (bash evaluates all before it assigns)', () => {
    const r = judgeSessionEnv(file('export A=1 BASH_ENV=/x B=2'), rule());
    expect([r.script, r.ignored]).toEqual(['', ['CLAUDE_ENV_FILE:1']]);
    expect(r.warnings[0]).toMatch(/line 1 \(BASH_ENV\)/);
  });

  it('where bash cannot be followed, the rest of the file is refused as one span', () => {
    const r = judgeSessionEnv(file('export A=1', 'if true; then', '  export B=2', 'fi'), rule());
    expect([r.script, r.ignored]).toEqual(['export A=1', ['CLAUDE_ENV_FILE:2-4']]);
    expect(r.warnings[0]).toMatch(/^CLAUDE_ENV_FILE lines 2-4 \(if\): line 2 has "if", a compound command/);
  });

  it('a JSON sessionEnv becomes export lines after the file, each variable judged; a sessionEnvScript like the file', () => {
    const r = judgeSessionEnv(
      {
        ...file('export A=1'),
        script: 'export B="$A-2"\nsource y',
        env: { C: "it's", PATH: '/tmp/x', D: 'a\u0000b' },
      },
      rule(),
    );
    expect(r.script).toBe(`export A=1\nexport B="$A-2"\nexport C='it'\\''s'`);
    expect({ ...r.env }).toEqual({ A: '1', C: "it's" });
    expect(r.ignored).toEqual(['sessionEnvScript:2', 'sessionEnv.PATH', 'sessionEnv.D']);
  });

  it('a later assignment that is not a literal takes the variable out of env (env holds only literal values)', () => {
    const r = judgeSessionEnv(file('export A=1', 'export A="$A:2"'), rule());
    expect({ ...r.env }).toEqual({});
    expect(r.script).toBe('export A=1\nexport A="$A:2"');
  });
});
