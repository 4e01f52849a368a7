// biome-ignore-all lint/suspicious/noTemplateCurlyInString: bash ${NAME} expansions, written as in env files
// The CLAUDE_ENV_FILE scanner against bash itself: every statement it keeps is run by a real bash,
// and the variables bash ends up with must be the ones the scanner says the statement sets.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseEnvScript } from '../../src/contract/env-script.js';

/** What bash prints for `names` after running `script` with a fixed environment. */
function bash(script: string, names: readonly string[]): Record<string, string | null> {
  const probe = names
    .map((n) => `if [ -n "\${${n}+x}" ]; then printf '%s=%s\\0' ${n} "$${n}"; fi`)
    .join('\n');
  const r = spawnSync('bash', ['-c', `${script}\n${probe}`], {
    encoding: 'utf8',
    env: { PATH: '/usr/bin:/bin', HOME: '/home/u' },
  });
  const out: Record<string, string | null> = Object.fromEntries(names.map((n) => [n, null]));
  for (const pair of r.stdout.split('\0').filter((p) => p !== '')) {
    const eq = pair.indexOf('=');
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

describe('parseEnvScript: the statements of an env file as bash reads them', () => {
  it('keeps assignments as written: export, declare -x (export -p), bare, several, +=', () => {
    const text = [
      'export NODE_ENV=production',
      `export GREETING='hello world' # a comment`,
      'declare -x QUOTED="a \\"b\\" \\$c"',
      'PLAIN=1; export PLAIN',
      'export A=1 B="$HOME/x"',
      'export PATH="$PATH:/opt/x/bin"',
      'export PATH+=:/opt/y',
      'export MULTI="line one',
      'line two"',
      '',
      '   # indented comment',
    ].join('\n');
    const parsed = parseEnvScript(text);
    expect(parsed.lost).toBeUndefined();
    expect(parsed.statements.map((s) => (s.kind === 'assign' ? [s.line, s.text] : s))).toEqual([
      [1, 'export NODE_ENV=production'],
      [2, "export GREETING='hello world'"],
      [3, 'declare -x QUOTED="a \\"b\\" \\$c"'],
      [4, 'PLAIN=1'],
      [4, 'export PLAIN'],
      [5, 'export A=1 B="$HOME/x"'],
      [6, 'export PATH="$PATH:/opt/x/bin"'],
      [7, 'export PATH+=:/opt/y'],
      [8, 'export MULTI="line one\nline two"'],
    ]);
    const kept = parsed.statements.flatMap((s) => (s.kind === 'assign' ? [s.text] : []));
    // Written on as they are, they mean to bash what they meant in the file.
    const names = ['NODE_ENV', 'GREETING', 'QUOTED', 'PLAIN', 'A', 'B', 'PATH', 'MULTI'];
    expect(bash(kept.join('\n'), names)).toEqual(bash(text, names));
    expect(bash(kept.join('\n'), ['PATH', 'B'])).toEqual({
      PATH: '/usr/bin:/bin:/opt/x/bin:/opt/y',
      B: '/home/u/x',
    });
  });

  it('reads each value as bash does: quotes, escapes, ~ where bash expands it, ${NAME:-word}', () => {
    const cases = [
      'V=plain',
      "V='single $HOME'",
      'V="double $HOME ${HOME}"',
      'V=a\\ b',
      'V=~/x:~/y',
      'V=a~b',
      'V="${MISSING:-fallback}"',
      'V="${HOME:+set}"',
      'V=${HOME-x}${MISSING+y}',
      'export V="$HOME"/"x"',
      'V=""',
    ];
    for (const line of cases) {
      const st = parseEnvScript(line).statements[0]!;
      expect([line, st.kind]).toEqual([line, 'assign']);
    }
    // ~ inside quotes and ~user are not what the scanner evaluates.
    expect(parseEnvScript('V=~root').statements[0]).toMatchObject({ kind: 'refused', why: /~user/ });
    expect(bash('V=a~b', ['V'])).toEqual({ V: 'a~b' });
  });

  it('refuses commands, substitutions and what it does not evaluate, by line, and goes on', () => {
    const text = [
      'export A=1',
      'source ~/.nvm/nvm.sh',
      'eval "$(direnv export bash)"',
      'export B=$(id -u)',
      'export C=`id -u`',
      'export D=$1',
      'export E=${HOME%/*}',
      'nvm use 20',
      'FOO=1 git status',
      'export F=1 &',
      'export G=1 && export H=2',
      'export I=1 | cat',
      'export J=1 > /dev/null',
      'export -n K',
      'export L=*.txt',
      'export M={a,b}',
      "export N=$'\\x41'",
      '[ -s "$HOME/x" ] && \\. "$HOME/x"',
      'export Z=last',
    ].join('\n');
    const parsed = parseEnvScript(text);
    expect(parsed.lost).toBeUndefined();
    const summary = parsed.statements.map((s) => [s.line, s.kind, s.kind === 'refused' ? s.head : '']);
    expect(summary).toEqual([
      [1, 'assign', ''],
      [2, 'refused', 'source'],
      [3, 'refused', 'eval'],
      [4, 'refused', 'export'],
      [5, 'refused', 'export'],
      [6, 'refused', 'export'],
      [7, 'refused', 'export'],
      [8, 'refused', 'nvm'],
      [9, 'refused', 'FOO=…'],
      [10, 'refused', 'export'],
      [11, 'refused', 'export'],
      [12, 'refused', 'export'],
      [13, 'refused', 'export'],
      [14, 'refused', 'export'],
      [15, 'refused', 'export'],
      [16, 'refused', 'export'],
      [17, 'refused', 'export'],
      [18, 'refused', '['],
      [19, 'assign', ''],
    ]);
    const why = (line: number) => parsed.statements.find((s) => s.line === line && s.kind === 'refused');
    expect(why(2)).toMatchObject({ why: /runs a command/ });
    expect(why(4)).toMatchObject({ why: /runs a command \(\$\(…\) or backquotes\)/ });
    expect(why(10)).toMatchObject({ why: /background/ });
    expect(why(15)).toMatchObject({ why: /unquoted/ });
  });

  it('never shows a value in what it reports (a value may be a secret)', () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    const parsed = parseEnvScript(`TOKEN=${token} git push\n${token}\nexport X="$(cat ${token})"`);
    expect(parsed.statements).toHaveLength(3);
    expect(JSON.stringify(parsed)).not.toContain(token);
  });

  it('stops where it cannot follow bash: if, a subshell, a here-document, an unterminated quote', () => {
    const cases: [string, number][] = [
      ['export A=1\nif [ -d /opt ]; then\n  export PATH=/opt/bin:$PATH\nfi\nexport B=2', 2],
      ['export A=1\n(export B=2)\nexport C=3', 2],
      ['export A=1\ncat <<EOF\nexport PATH=/evil\nEOF', 2],
      ["export A=1\nexport B='open\nexport PATH=/evil", 2],
      ['export A=1\nf() { export B=2; }\nexport C=3', 2],
      ['export A=1\n{ export B=2; }', 2],
      ['export A=1\n;; export B=2', 2],
      ['export A=1 &&\n', 1],
    ];
    for (const [text, line] of cases) {
      const parsed = parseEnvScript(text);
      expect([text, parsed.lost?.line]).toEqual([text, line]);
      // Nothing at or after the line it lost its way is kept.
      expect(parsed.statements.every((s) => s.line < line)).toBe(true);
    }
  });

  it('follows $(…) with quotes, nesting and parentheses inside, and goes on after it', () => {
    const parsed = parseEnvScript(
      'export A="$(echo ")" $(echo "(") ${X:-}) )"\nexport B=`echo \\` x`\nexport C=3',
    );
    expect(parsed.lost).toBeUndefined();
    expect(parsed.statements.map((s) => [s.line, s.kind])).toEqual([
      [1, 'refused'],
      [2, 'refused'],
      [3, 'assign'],
    ]);
    expect(parseEnvScript('export A=$(case x in x) echo;; esac)\nexport B=1').lost?.line).toBe(1);
  });

  it('a cut file: its last statement is refused', () => {
    const parsed = parseEnvScript('export A=1\nexport PATH=/opt/bin:/usr', true);
    expect(parsed.statements.map((s) => s.kind)).toEqual(['assign', 'refused']);
  });

  it('refuses a statement with a NUL byte (bash drops them)', () => {
    expect(parseEnvScript("export A='x\u0000y'").statements[0]).toMatchObject({
      kind: 'refused',
      why: /NUL/,
    });
  });
});
