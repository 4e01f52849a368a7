// A one-command shell line started without its shell (sandbox/command/direct-exec.ts): the program,
// its words and its environment must be exactly what the shell itself would exec, for bash and for
// /bin/sh, in other working directories and environments; every line the shell would read in any
// other way keeps its shell.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { directExec } from '../../../sandbox/command/direct-exec.js';
import { processSpec } from '../../../sandbox/command/process-profile.js';

const dir = mkdtempSync(join(tmpdir(), 'hw-direct-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const script = join(dir, 'hook.sh');
writeFileSync(script, '#!/bin/sh\nprintf "%s\\n" "$0" "$@"; /usr/bin/env\n');
chmodSync(script, 0o755);
const noShebang = join(dir, 'plain.sh');
writeFileSync(noShebang, 'echo plain\n');
chmodSync(noShebang, 0o755);
symlinkSync(dir, join(dir, 'link'));

/**
 * What a program prints, its environment sorted (the order of the entries is not part of it). Its
 * stdin is no socket, as the spawn server's pipe is not (bash reads ~/.bashrc when stdin is a socket).
 */
function run(argv: readonly string[], env: Record<string, string>, cwd: string): string[] {
  return execFileSync(argv[0]!, argv.slice(1), {
    env,
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
    .trimEnd()
    .split('\n')
    .sort();
}

const SHELLS = ['/bin/bash', '/bin/sh'];
const ENVS: Record<string, string>[] = [
  { PATH: '/usr/bin:/bin' },
  { PATH: '/bin', HOME: '/nowhere', SHLVL: '3', LANG: 'C.UTF-8' },
  { HOOK_EVENT: 'PreToolUse', SHLVL: '0', PWD: dir },
];
const LINES = [
  '/usr/bin/env',
  `${script} one two=2 --flag=x,y`,
  `  ${script}\ta@b  c%d  `,
  './hook.sh relative',
];

describe('directExec: what the shell would exec', () => {
  for (const shell of SHELLS)
    for (const [i, env] of ENVS.entries())
      for (const line of LINES)
        it(`${shell} -c ${JSON.stringify(line)}, environment ${i}`, () => {
          const direct = directExec([shell, '-c', line], env, dir);
          expect(direct).toBeDefined();
          expect(run(direct!.argv, direct!.env, dir)).toEqual(run([shell, '-c', line], env, dir));
        });

  it('a working directory reached through a link: PWD is the physical path, as getcwd gives it', () => {
    const cwd = join(dir, 'link');
    const direct = directExec(['/bin/bash', '-c', '/usr/bin/env'], {}, cwd);
    expect(run(direct!.argv, direct!.env, cwd)).toEqual(run(['/bin/bash', '-c', '/usr/bin/env'], {}, cwd));
  });

  const keeps: [string, string, Record<string, string> | undefined][] = [
    ['a builtin', 'true', undefined],
    ['a PATH search', 'env', undefined],
    ['a variable', '/usr/bin/env $HOME', undefined],
    ['quotes', "/usr/bin/env 'a b'", undefined],
    ['a glob', '/bin/ls *', undefined],
    ['a tilde', '/bin/ls ~', undefined],
    ['a redirection', '/usr/bin/env >/dev/null', undefined],
    ['two commands', '/bin/true; /bin/false', undefined],
    ['a pipe', '/bin/true|/bin/cat', undefined],
    ['a comment', '/bin/true #x', undefined],
    ['a newline', '/bin/true\n/bin/false', undefined],
    ['an assignment', 'A=1 /usr/bin/env', undefined],
    ['braces', '/bin/echo {a,b}', undefined],
    ['a file without #!', noShebang, undefined],
    ['a missing file', join(dir, 'missing'), undefined],
    ['a directory', dir, undefined],
    ['BASH_ENV', '/usr/bin/env', { BASH_ENV: script }],
    ['an exported function', '/usr/bin/env', { 'BASH_FUNC_/usr/bin/env%%': '() { echo x; }' }],
    ['SHELLOPTS', '/usr/bin/env', { SHELLOPTS: 'xtrace' }],
    ['a SHLVL bash warns about', '/usr/bin/env', { SHLVL: '999' }],
    ['a SHLVL that is no number', '/usr/bin/env', { SHLVL: 'x' }],
    ['a PWD of another directory', '/usr/bin/env', { PWD: '/' }],
  ];
  for (const [what, line, env] of keeps)
    it(`keeps the shell for ${what}`, () => {
      expect(directExec(['/bin/bash', '-c', line], env ?? {}, dir)).toBeUndefined();
    });

  it('keeps the shell of other interpreters (PowerShell) and of argv programs', () => {
    expect(directExec(['/usr/bin/pwsh', '-NoProfile', '-Command', '/bin/true'], {}, dir)).toBeUndefined();
    expect(directExec(['/bin/true'], {}, dir)).toBeUndefined();
  });
});

describe('processSpec', () => {
  const task = (command: string, runAs?: 'nobody') =>
    ({
      program: { kind: 'shell', command, interpreter: ['/bin/bash', '-c'] },
      cwd: dir,
      scratchDir: dir,
      env: {},
      inheritEnv: [],
      rlimits: { cpuSeconds: 0, openFiles: 64, fileSizeBytes: 1 << 20, addressSpaceBytes: undefined },
      deadlineMs: 1000,
      stdin: '',
      maxOutputBytes: 1024,
      runAs,
    }) as unknown as Parameters<typeof processSpec>[0];

  it('starts a one-command line without its shell, and keeps the shell for the rest', () => {
    expect(processSpec(task(`${script} a`), {}, 'prefer').argv).toEqual([script, 'a']);
    expect(processSpec(task(`${script} "a"`), {}, 'prefer').argv).toEqual([
      '/bin/bash',
      '-c',
      `${script} "a"`,
    ]);
  });

  it('keeps the shell for a hook that runs as nobody (its own access to the file decides)', () => {
    expect(processSpec(task(`${script} a`, 'nobody'), {}, 'prefer').argv[0]).toBe('/bin/bash');
  });
});
