// `if` filters mean what Claude Code 2.1.333's permission rules mean: a Bash rule is matched against
// each simple command of a compound one, path rules are gitignore-style and rooted where the rule
// says; what cannot be split or resolved counts as matched (trust invariant 3).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simpleCommands } from '../../src/registry/bash-commands.js';
import { IfFilter } from '../../src/registry/if-filter.js';

const bash = (rule: string, command: string) => new IfFilter(`Bash(${rule})`).matches('Bash', { command });

describe('the simple commands of a Bash call', () => {
  it.each([
    ['git push', ['git push']],
    ['cd repo && git push', ['cd repo', 'git push']],
    ['git status; git push', ['git status', 'git push']],
    ['git status\ngit push origin', ['git status', 'git push origin']],
    ['FOO=1 BAR="a b" git push', ['git push']],
    ['ls | grep x || echo none', ['ls', 'grep x', 'echo none']],
    ['sleep 1 & git  push', ['sleep 1', 'git push']],
    ['git push 2>&1 > /tmp/log', ['git push']],
    ['echo \'a && b\' "c;d"', ['echo a && b c;d']],
    ['! git diff --quiet |& cat', ['git diff --quiet', 'cat']],
    ['git \\\n  push', ['git push']],
    ['ls # git push', ['ls']],
  ])('%j → %j', (command, expected) => {
    expect(simpleCommands(command)).toEqual(expected);
  });

  it.each([
    ['echo $(git push)'],
    ['echo `git push`'],
    ['$CMD push'],
    ['echo "$HOME"'],
    ['(git push)'],
    ['{ git push; }'],
    ['if true; then git push; fi'],
    ['for x in a; do git push; done'],
    ['cat <<EOF\ngit push\nEOF'],
    ["echo 'unterminated"],
    ['diff <(ls) <(ls)'],
    ['git push >'],
  ])('cannot split %j with confidence', (command) => {
    expect(simpleCommands(command)).toBeUndefined();
  });
});

describe('Bash rules', () => {
  it('match any subcommand: &&, ||, ;, |, newlines, leading assignments', () => {
    for (const command of [
      'git push',
      'git push --force origin main',
      'cd repo && git push',
      'git status; git push',
      'FOO=1 git push',
      'git status\ngit push',
      'make || git push',
      'echo ok | git push',
      'xargs git push',
    ])
      expect(bash('git push*', command), command).toBe(true);
    expect(bash('rm -rf *', 'ls && rm -rf build')).toBe(true);
    expect(bash('git push*', 'git status && git pull')).toBe(false);
    expect(bash('git push*', 'echo "git push"')).toBe(false);
  });

  it('prefix:* is the command or the command and arguments; a trailing " *" makes arguments optional; no * is the whole command', () => {
    expect(bash('npm run test:*', 'npm run test')).toBe(true);
    expect(bash('npm run test:*', 'npm run test -- --watch')).toBe(true);
    expect(bash('npm run test:*', 'npm run tests')).toBe(false);
    expect(bash('git commit *', 'git commit')).toBe(true);
    expect(bash('git commit *', 'git commit -m x')).toBe(true);
    expect(bash('git commit *', 'git commitx')).toBe(false);
    expect(bash('git push', 'git push')).toBe(true);
    expect(bash('git push', 'git push --force')).toBe(false);
    expect(bash('git   push  *', 'git push  -f')).toBe(true);
  });

  it('count as matched when the command cannot be split with confidence', () => {
    expect(bash('git push*', 'echo $(date)')).toBe(true);
    expect(bash('git push*', 'if x; then y; fi')).toBe(true);
    expect(new IfFilter('Bash(git push*)').matches('Bash', { command: 42 })).toBe(true);
    expect(new IfFilter('Bash(git push*)').matches('Bash', 'not an object')).toBe(true);
  });
});

describe('path rules', () => {
  const configDir = '/proj/.claude';
  const filter = (rule: string) => new IfFilter(rule, { configDir });
  const on = (rule: string, path: string, cwd: string | undefined = '/proj') =>
    filter(rule).matches(rule.slice(0, rule.indexOf('(')), { file_path: path }, undefined, cwd);

  it('./ and bare patterns are the working directory; a pattern without a slash matches at any depth', () => {
    expect(on('Read(./.env)', '/proj/.env')).toBe(true);
    expect(on('Read(.env)', '/proj/.env')).toBe(true);
    expect(on('Read(.env)', '/proj/sub/.env')).toBe(true);
    expect(on('Read(.env)', '.env')).toBe(true);
    expect(on('Read(.env)', '/proj/.envrc')).toBe(false);
    expect(on('Read(.env)', '/elsewhere/.env')).toBe(false);
    expect(on('Edit(src/**)', '/proj/src/a/b.ts')).toBe(true);
    expect(on('Edit(src/**)', 'src/a.ts')).toBe(true);
    expect(on('Edit(src/**)', '/proj/lib/src/a.ts')).toBe(false);
    expect(on('Edit(*.ts)', '/proj/deep/a.ts')).toBe(true);
    expect(on('Edit(src/*.ts)', '/proj/src/deep/a.ts')).toBe(false);
  });

  it('//abs is the file system root, ~/ the home folder, / the settings file’s folder (and, read either way, the project and the root)', () => {
    expect(on('Write(//etc/**)', '/etc/passwd')).toBe(true);
    expect(on('Write(//etc/**)', '/proj/etc/passwd')).toBe(false);
    expect(on('Read(~/.ssh/**)', join(homedir(), '.ssh', 'id_ed25519'))).toBe(true);
    expect(on('Edit(/docs/**)', '/proj/.claude/docs/a.md')).toBe(true);
    expect(on('Edit(/docs/**)', '/proj/docs/a.md')).toBe(true);
    expect(on('Write(/etc/**)', '/etc/passwd')).toBe(true);
    expect(on('Edit(/docs/**)', '/other/docs/a.md')).toBe(false);
  });

  it('count as matched when the path cannot be resolved', () => {
    expect(on('Read(.env)', 'relative/.env', undefined)).toBe(true);
    expect(filter('Read(.env)').matches('Read', {}, undefined, '/proj')).toBe(true);
  });

  it('apply under legacy tool names too, and a NotebookEdit rule reads notebook_path', () => {
    expect(new IfFilter('Task').matches('Agent', {})).toBe(true);
    expect(
      filter('NotebookEdit(*.ipynb)').matches(
        'NotebookEdit',
        { notebook_path: '/proj/a.ipynb' },
        undefined,
        '/proj',
      ),
    ).toBe(true);
  });
});
