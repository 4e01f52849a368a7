// hookwarden's knobs cannot weaken a policy (docs/security.md, "hookwarden's knobs"). The environment
// is a repository's to set too (a `.claude/settings.json` `env` block reaches the adapter Claude Code
// starts), so: a program path from HOOKWARDEN_BWRAP is used only if absolute and changeable by no one
// but root or hookwarden's user; no knob lowers isolation below what a policy requires (the hook
// fails closed); every knob in use is in the record. The real CLI, started with the variables set.
import { chmodSync, chownSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { hooksOn, tempDir, writeConfig } from '../../helpers/fixture.js';

/** A "bwrap" that, run at all, leaves a marker behind: where it would run as the sandbox's launcher. */
function fakeLauncher(path: string, marker: string, mode = 0o755): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `#!/bin/sh\ntouch '${marker}'\nexec /usr/bin/env -- "$@"\n`, { mode });
  chmodSync(path, mode);
  return path;
}

/** A repository with its launcher under tools/, and a policy that requires namespace isolation. */
function repository(): { repo: string; marker: string; policy: string; config: string } {
  const repo = tempDir('hw-knob-repo-');
  const marker = join(repo, 'launcher-ran');
  const policy = writeConfig(repo, 'policy.json', { limits: { minIsolation: 'namespace' } });
  const config = writeConfig(
    repo,
    'hooks.json',
    hooksOn('BeforeTool', [{ name: 'guard', command: "echo '{}'", onError: 'deny' }]),
  );
  return { repo, marker, policy, config };
}

/** Launchers a repository could name: relative, writable by others, in a directory others may change, another user's, behind a symlink. */
const UNTRUSTED: [string, (r: ReturnType<typeof repository>) => string, RegExp][] = [
  [
    'a relative path',
    (r) => {
      fakeLauncher(join(r.repo, 'tools/bw'), r.marker);
      return 'tools/bw';
    },
    /not an absolute path/,
  ],
  ['a file others may write', (r) => fakeLauncher(join(r.repo, 'bw'), r.marker, 0o777), /writable by others/],
  [
    'a directory others may write',
    (r) => {
      const dir = join(r.repo, 'open');
      mkdirSync(dir, { mode: 0o777 });
      chmodSync(dir, 0o777);
      return fakeLauncher(join(dir, 'bw'), r.marker);
    },
    /open is writable by others/,
  ],
  [
    "another user's file",
    (r) => {
      const path = fakeLauncher(join(r.repo, 'theirs'), r.marker);
      chownSync(path, 1000, 1000);
      return path;
    },
    /belongs to uid 1000/,
  ],
  [
    "a symlink to another user's file",
    (r) => {
      const target = fakeLauncher(join(r.repo, 'theirs2'), r.marker);
      chownSync(target, 1000, 1000);
      symlinkSync(target, join(r.repo, 'link'));
      return join(r.repo, 'link');
    },
    /belongs to uid 1000/,
  ],
];
const asRoot = process.getuid?.() === 0;

describe('HOOKWARDEN_BWRAP from a repository', () => {
  it.each(UNTRUSTED.filter(([what]) => asRoot || !what.includes('user')))(
    'never runs (%s): the hook runs in the spawn server’s sandbox, or fails closed under HOOKWARDEN_NAMESPACE=bwrap',
    async (_what, make, why) => {
      const r = repository();
      const bwrap = make(r);
      const args = ['dispatch', 'BeforeTool', '-c', r.config, '--policy', r.policy];
      const native = await runCli(args, { cwd: r.repo, env: { ...process.env, HOOKWARDEN_BWRAP: bwrap } });
      expect(JSON.parse(native.stdout).hooks[0]).toMatchObject({
        outcome: 'proceed',
        containment: 'namespace',
        knobs: [`HOOKWARDEN_BWRAP=${bwrap}`],
      });
      const env = { ...process.env, HOOKWARDEN_BWRAP: bwrap, HOOKWARDEN_NAMESPACE: 'bwrap' };
      const viaBwrap = await runCli(args, { cwd: r.repo, env });
      expect(viaBwrap.code).toBe(2);
      expect(JSON.parse(viaBwrap.stdout)).toMatchObject({
        decision: 'deny',
        hooks: [{ error: { code: 'isolation_unavailable', message: expect.stringMatching(why) } }],
      });
      expect(existsSync(r.marker)).toBe(false);
    },
  );
});

describe('no knob lowers isolation below what a policy requires', () => {
  it.each([
    ['HOOKWARDEN_SPAWN_SERVER', 'off', 'namespace'],
    ['HOOKWARDEN_SPAWN_SERVER', '0', 'contained'],
    ['HOOKWARDEN_CONTAINMENT', 'off', 'contained'],
    ['HOOKWARDEN_CONTAINMENT', 'false', 'contained'],
  ])('%s=%s with a policy requiring %s: the hook fails closed, and says why', async (knob, value, level) => {
    const r = repository();
    const policy = writeConfig(r.repo, 'policy-level.json', { limits: { minIsolation: level } });
    const run = await runCli(['dispatch', 'BeforeTool', '-c', r.config, '--policy', policy], {
      env: { ...process.env, [knob]: value },
    });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).hooks[0].error).toMatchObject({
      code: 'isolation_unavailable',
      message: expect.stringContaining(`${knob}=${value}`),
    });
  });

  it('HOOKWARDEN_CONTAINMENT=off leaves namespace hooks as they are, and is named in their record', async () => {
    const r = repository();
    const run = await runCli(['dispatch', 'BeforeTool', '-c', r.config, '--policy', r.policy], {
      env: { ...process.env, HOOKWARDEN_CONTAINMENT: 'off' },
    });
    expect(JSON.parse(run.stdout).hooks[0]).toMatchObject({
      outcome: 'proceed',
      containment: 'namespace',
      knobs: ['HOOKWARDEN_CONTAINMENT=off'],
    });
  });
});
