// hookwarden's own processes are not dumpable (src/native/no-dump.c, host-guard.ts; and the spawn
// server), so a process of the same user without CAP_SYS_PTRACE (an uncontained hook) cannot read
// their environment or memory; and a secret-looking argument is blanked in /proc/<pid>/cmdline. Run
// as a real unprivileged user (nobody), which is what a hook of the same user would be: copies of the
// built module and server sit in a directory nobody can read (the checkout may be private).
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findNativeHelper } from '../../sandbox/command/native-helper.js';
import { guardHostProcess, hideSecretArguments } from '../../src/native/host-guard.js';
import { tempDir } from '../helpers/fixture.js';

const MODULE = fileURLToPath(new URL('../../dist/native/hw-no-dump.node', import.meta.url));
const NOBODY = { uid: 65534, gid: 65534 };
const ROOT = process.getuid?.() === 0;

function shared(): string {
  const dir = tempDir('hw-guard-');
  chmodSync(dir, 0o755);
  return dir;
}

/**
 * A Node process as nobody with a canary in its environment, guarded or not, and a second process
 * of the same user reading its /proc/<pid>/environ.
 */
function readSibling(guarded: boolean): { read: string; owner: number } {
  const dir = shared();
  const module = join(dir, 'hw-no-dump.node');
  copyFileSync(MODULE, module);
  chmodSync(module, 0o755);
  const script = join(dir, 'host.cjs');
  writeFileSync(
    script,
    `if (${guarded}) { const m = { exports: {} }; process.dlopen(m, ${JSON.stringify(module)}); if (m.exports !== true) process.exit(3); }
const { spawnSync } = require('node:child_process');
const target = '/proc/' + process.pid + '/environ';
const r = spawnSync('/bin/sh', ['-c', 'cat ' + target + ' 2>&1 | tr "\\\\0" " "; echo; stat -c %u ' + target], { encoding: 'utf8', env: {} });
process.stdout.write(r.stdout);`,
  );
  chmodSync(script, 0o644);
  const r = spawnSync(process.execPath, [script], {
    ...NOBODY,
    cwd: dir,
    env: { PATH: '/usr/bin:/bin', HW_CANARY_SECRET: 'canary-in-the-environment' },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  const lines = r.stdout.trim().split('\n');
  return { read: lines.slice(0, -1).join('\n'), owner: Number(lines.at(-1)) };
}

describe.runIf(ROOT)('a process of the same user', () => {
  it('reads an unguarded process environment (the baseline)', () => {
    const { read, owner } = readSibling(false);
    expect(owner).toBe(65534);
    expect(read).toContain('canary-in-the-environment');
  });

  it('cannot read a guarded one: its /proc files belong to root', () => {
    const { read, owner } = readSibling(true);
    expect(owner).toBe(0);
    expect(read).not.toContain('canary-in-the-environment');
    expect(read).toMatch(/Permission denied/);
  });

  it('cannot read the spawn server (it makes itself not dumpable)', async () => {
    const dir = shared();
    const server = join(dir, 'hw-spawn-server');
    copyFileSync(findNativeHelper('hw-spawn-server')!, server);
    chmodSync(server, 0o755);
    const child = spawn(server, [String(process.pid)], { ...NOBODY, env: {}, stdio: 'pipe' });
    // Its first frame (READY) says it is set up.
    await new Promise((r) => child.stdout.once('data', r));
    try {
      expect(statSync(`/proc/${child.pid}/environ`).uid).toBe(0);
      expect(statSync(`/proc/${child.pid}/mem`).uid).toBe(0);
    } finally {
      child.stdin.end();
      await new Promise((r) => child.on('close', r));
    }
  });
});

describe('this process', () => {
  it('is guarded once, and says so', () => {
    expect(guardHostProcess()).toEqual({ guarded: true });
    expect(guardHostProcess()).toEqual({ guarded: true });
  });

  it('blanks secret-looking arguments in its command line, and only those', () => {
    expect(hideSecretArguments(['node', 'hw', 'serve', '--config', 'a.json'])).toBe(false);
    const script = `const { hideSecretArguments } = await import(${JSON.stringify(new URL('../../dist/src/native/host-guard.js', import.meta.url).href)});
hideSecretArguments();
process.stdout.write(require('node:fs').readFileSync('/proc/self/cmdline', 'latin1').replaceAll('\\0', ' ').trim());`;
    const r = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        script.replace("require('node:fs')", "(await import('node:fs'))"),
        'serve',
        '--queue',
        'redis://:pw-canary@127.0.0.1:6379',
        '--token=ghp_0123456789abcdefghijABCDEFGHIJ012345',
      ],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/serve --queue \*\*\* \*\*\*/);
    expect(r.stdout).not.toContain('pw-canary');
    expect(r.stdout).not.toContain('ghp_');
  });
});
