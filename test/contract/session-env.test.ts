// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash ${NAME} expansions, written as in env files
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { judgeSessionEnv, type SessionEnvRule } from '../../src/contract/session-env.js';
import { SESSION_ENV_INERT } from '../../src/contract/session-env-names.js';

const PROJECT = '/work/proj';
const PROJECT_HOOK = { free: false, who: 'a project hook' };
const rule = (over: Partial<SessionEnvRule> = {}): SessionEnvRule => ({
  writer: PROJECT_HOOK,
  allow: new Set(),
  pathDirs: [],
  hostPath: ['/usr/local/bin', '/usr/bin', '/bin'],
  home: '/home/u',
  inProject: (d) => d === PROJECT || d.startsWith(`${PROJECT}/`),
  ...over,
});
const file = (...lines: string[]) => ({ file: { text: lines.join('\n'), truncated: false } });
const policy = rule({ writer: { free: true, who: 'a policy hook' } });
/** Names the tests set that are not on the inert list: admitted as the policy's `allow` would. */
const named = (...names: string[]) => rule({ allow: new Set(names) });
const nvm = rule({ pathDirs: ['/home/u/.nvm/versions', '/opt/tools'], allow: new Set(['NVM_BIN']) });

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
      named('GREETING', 'NVM_DIR'),
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
        /^CLAUDE_ENV_FILE line 5 \(BASH_ENV\): "BASH_ENV" is not on the list of variables known to be inert for a session, and a project hook may set only those unless a policy file admits it \("sessionEnv": \{"allow": \["BASH_ENV"\]\}\): not applied$/,
      ),
    ]);
  });

  it("from anyone but a free writer, admits only the inert list and the policy's names: proxies, config and any new name are refused", () => {
    const names = [
      'HTTPS_PROXY',
      'http_proxy',
      'ALL_PROXY',
      'NO_PROXY',
      'BASH_ENV',
      'NODE_OPTIONS',
      'GIT_SSH_COMMAND',
      'GIT_CONFIG_KEY_0',
      'NPM_CONFIG_REGISTRY',
      'DOCKER_HOST',
      'ANTHROPIC_BASE_URL',
      'OPENAI_BASE_URL',
      'AWS_ENDPOINT_URL',
      'SOME_TOOL_NOT_YET_WRITTEN',
      'GREETING',
      'node_options',
    ];
    for (const writer of [
      PROJECT_HOOK,
      { free: false, who: 'tenant "acme"\'s hook' },
      { free: false, who: 'a namespace-mode hook' },
      { free: false, who: "a prompt hook (a model's answer)" },
    ]) {
      const r = judgeSessionEnv(
        file(...names.map((n) => `export ${n}=http://10.0.0.1:3128`)),
        rule({ writer }),
      );
      expect([writer.who, r.script, r.ignored.length]).toEqual([writer.who, '', names.length]);
      expect(r.warnings.every((w) => w.includes(writer.who))).toBe(true);
    }
    const allowed = judgeSessionEnv(
      file('export NODE_OPTIONS=--max-old-space-size=4096', 'export https_proxy=http://proxy:3128'),
      rule({ allow: new Set(['NODE_OPTIONS', 'HTTPS_PROXY']) }),
    );
    expect([allowed.ignored, allowed.script.split('\n').length]).toEqual([[], 2]);
  });

  it('admits every name of the inert list with a plain value, and refuses the same names with a path or a substitution', () => {
    for (const c of SESSION_ENV_INERT) {
      for (const name of [...c.names, ...(c.prefixes ?? []).map((p) => `${p}TIME`)]) {
        const plain =
          name === 'TZ'
            ? 'Europe/Paris'
            : name.startsWith('LC_') || name.startsWith('LANG')
              ? 'C.UTF-8'
              : '1';
        const ok = judgeSessionEnv(file(`export ${name}=${plain}`), rule());
        expect([name, ok.ignored]).toEqual([name, []]);
        if (c.value === undefined) continue;
        for (const bad of ['/tmp/evil/locale', '$(id)', '"$HTTPS_PROXY"']) {
          const r = judgeSessionEnv(file(`export ${name}=${bad}`), rule());
          expect([name, bad, r.script]).toEqual([name, bad, '']);
        }
      }
    }
  });

  it("a free writer (the policy's, the user's own unsandboxed hook) keeps Claude Code's meaning: any name, PATH as written, but never the loader's", () => {
    const user = rule({ writer: { free: true, who: 'a user hook' } });
    const r = judgeSessionEnv(
      file(
        'export PATH="$PATH:/home/u/.local/bin"',
        'export PATH=$CLAUDE_PROJECT_DIR/.tools:$PATH',
        'export HTTPS_PROXY=http://corp-proxy:3128',
        'export JAVA_HOME=/opt/jdk',
        'export LD_PRELOAD=/x.so',
      ),
      user,
    );
    expect(r.ignored).toEqual(['CLAUDE_ENV_FILE:5']);
    expect(bashPath(r.script.split('\n')[0]!)).toBe('/usr/local/bin:/usr/bin:/bin:/home/u/.local/bin');
  });

  it('never the loader variables, whatever the policy says', () => {
    const r = judgeSessionEnv(
      file('export LD_PRELOAD=/x.so', 'export GLIBC_TUNABLES=x'),
      rule({
        allow: new Set(['LD_PRELOAD', 'GLIBC_TUNABLES']),
        writer: { free: true, who: 'a trusted hook' },
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
        writer: { free: false, who: 'a namespace-mode hook' },
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
    const r = judgeSessionEnv(file('export A=1 BASH_ENV=/x B=2'), named('A', 'B'));
    expect([r.script, r.ignored]).toEqual(['', ['CLAUDE_ENV_FILE:1']]);
    expect(r.warnings[0]).toMatch(/line 1 \(BASH_ENV\)/);
  });

  it('where bash cannot be followed, the rest of the file is refused as one span', () => {
    const r = judgeSessionEnv(file('export A=1', 'if true; then', '  export B=2', 'fi'), named('A', 'B'));
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
      named('A', 'B', 'C', 'D'),
    );
    expect(r.script).toBe(`export A=1\nexport B="$A-2"\nexport C='it'\\''s'`);
    expect({ ...r.env }).toEqual({ A: '1', C: "it's" });
    expect(r.ignored).toEqual(['sessionEnvScript:2', 'sessionEnv.PATH', 'sessionEnv.D']);
  });

  it('a later assignment that is not a literal takes the variable out of env (env holds only literal values)', () => {
    const r = judgeSessionEnv(file('export A=1', 'export A="$A:2"'), named('A'));
    expect({ ...r.env }).toEqual({});
    expect(r.script).toBe('export A=1\nexport A="$A:2"');
  });
});
