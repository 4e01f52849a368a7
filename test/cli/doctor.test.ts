import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.js';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';

const FAKE_BWRAP = fileURLToPath(new URL('../fixtures/hostile/fake-bwrap-no-userns.sh', import.meta.url));

describe('hookwarden doctor', () => {
  it('reports every isolation level with a real check', async () => {
    // A home of its own: doctor also judges the agents' hook files it finds there (none here).
    const r = await runCli(['doctor', '--json'], { env: { ...process.env, HOME: tempDir() } });
    const report = JSON.parse(r.stdout);
    expect(report.checks.map((c: { name: string }) => c.name)).toEqual([
      'command hook spawning',
      'process isolation',
      'process containment',
      'own secrets',
      'namespace isolation',
      'runAs "nobody"',
      'process cap',
      'Landlock',
      'knobs',
      'bubblewrap',
      'JS hooks (QuickJS)',
      'scratch directories',
      'hookwarden-client',
    ]);
    expect(report.checks[12]).toMatchObject({
      ok: true,
      detail: expect.stringMatching(
        /^hookwarden-client \(.*\/dist\/native\/hookwarden-client\): hook calls go to a per-user daemon/,
      ),
    });
    expect(report.checks[0]).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^spawn server \(.*\/hw-spawn-server\): .*the main thread never forks/),
    });
    expect(report.checks[1]).toMatchObject({ ok: true, detail: expect.stringContaining('(spawn server)') });
    expect(report.checks[2]).toMatchObject({
      ok: true,
      detail: expect.stringContaining('namespaces of their own'),
    });
    expect(report.checks[3]).toMatchObject({ ok: true, detail: expect.stringContaining('not dumpable') });
    expect(report.checks[4]).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^built by the spawn server/),
    });
    expect(report.checks[6]).toMatchObject({
      ok: true,
      detail: expect.stringMatching(
        /^at most \d+ processes and threads per hook; contained hooks: .*namespace hooks: /,
      ),
    });
    expect(report.checks[10]).toMatchObject({ ok: true });
    expect(r.code).toBe(report.ok ? 0 : 1);
  });

  it('says when command hooks are spawned from Node instead, why, and what it costs', async () => {
    const r = await runCli(['doctor', '--json'], { env: { ...process.env, HOOKWARDEN_SPAWN_SERVER: 'off' } });
    const [spawning, processCheck] = JSON.parse(r.stdout).checks;
    expect(spawning).toMatchObject({
      name: 'command hook spawning',
      ok: true,
      detail: expect.stringMatching(
        /^Node child_process.spawn on the main thread, because HOOKWARDEN_SPAWN_SERVER=off: every hook start forks the whole Node process/,
      ),
      fix: 'unset HOOKWARDEN_SPAWN_SERVER',
    });
    expect(processCheck).toMatchObject({ ok: true, detail: expect.stringContaining('(hw-exec helper)') });
  });

  it('namespace isolation needs no bubblewrap: a missing one changes nothing', async () => {
    const r = await runCli(['doctor', '--json'], {
      env: { ...process.env, HOOKWARDEN_BWRAP: '/nonexistent/bwrap' },
    });
    const checks = JSON.parse(r.stdout).checks;
    expect(checks[4]).toMatchObject({ name: 'namespace isolation', ok: true });
    expect(checks.find((c: { name: string }) => c.name === 'bubblewrap')).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^not needed \(.*\/nonexistent\/bwrap/),
    });
  });

  it.each([
    ['is missing', '/nonexistent/bwrap', /ENOENT/],
    ['refuses to start', FAKE_BWRAP, /cannot create namespaces here: bwrap: No permissions/],
  ])(
    'with HOOKWARDEN_NAMESPACE=bwrap, says why namespace isolation fails when bubblewrap %s, and how to fix it',
    async (_what, bwrap, reason) => {
      const env = { ...process.env, HOOKWARDEN_BWRAP: bwrap, HOOKWARDEN_NAMESPACE: 'bwrap' };
      const r = await runCli(['doctor', '--json'], { env });
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout);
      expect(report.checks[4]).toMatchObject({
        ok: false,
        detail: expect.stringMatching(reason),
        fix: expect.stringMatching(/unset HOOKWARDEN_NAMESPACE/),
      });
      // Every knob in use is named.
      expect(report.checks.find((c: { name: string }) => c.name === 'knobs').detail).toContain(
        `HOOKWARDEN_BWRAP=${bwrap}, HOOKWARDEN_NAMESPACE=bwrap`,
      );
      const human = await runCli(['doctor'], { env });
      expect(human.stdout).toMatch(/✗ namespace isolation/);
    },
  );
});

describe('doctor on a host that cannot contain process-mode hooks', () => {
  it('says so, why, and how to fix it (a kernel that refuses user namespaces, for real)', async () => {
    const run = spawnSync(
      'unshare',
      [
        '--user',
        '--map-root-user',
        '/bin/sh',
        '-c',
        'echo 0 > /proc/sys/user/max_user_namespaces && exec "$0" "$@"',
        process.execPath,
        BIN,
        'doctor',
        '--json',
      ],
      { encoding: 'utf8' },
    );
    expect(run.status).toBe(1);
    const check = JSON.parse(run.stdout).checks.find(
      (c: { name: string }) => c.name === 'process containment',
    );
    expect(check).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/UNCONTAINED here \(clone: No space left on device\)/),
      fix: expect.stringContaining('user.max_user_namespaces'),
    });
  });

  it('says so when HOOKWARDEN_CONTAINMENT=off turned it off', async () => {
    const r = await runCli(['doctor', '--json'], { env: { ...process.env, HOOKWARDEN_CONTAINMENT: 'off' } });
    expect(r.code).toBe(1);
    const check = JSON.parse(r.stdout).checks.find((c: { name: string }) => c.name === 'process containment');
    expect(check).toMatchObject({ ok: false, fix: 'unset HOOKWARDEN_CONTAINMENT' });
  });
});

describe('a namespace hook on a host without working bubblewrap', () => {
  it.each([['/nonexistent/bwrap'], [FAKE_BWRAP]])(
    "runs in the spawn server's sandbox all the same (%s)",
    async (bwrap) => {
      const dir = tempDir();
      const cfg = writeConfig(
        dir,
        'hooks.json',
        hooksOn('BeforeTool', [
          { name: 'iso', command: "echo '{}'", isolation: 'namespace', onError: 'deny' },
        ]),
      );
      const r = await runCli(['dispatch', 'BeforeTool', '-c', cfg], {
        env: { ...process.env, HOOKWARDEN_BWRAP: bwrap },
      });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).hooks[0]).toMatchObject({ outcome: 'proceed', containment: 'namespace' });
    },
  );

  it.each([['/nonexistent/bwrap'], [FAKE_BWRAP]])(
    'with HOOKWARDEN_NAMESPACE=bwrap, fails closed with isolation_unavailable, never runs weaker (%s)',
    async (bwrap) => {
      const dir = tempDir();
      const marker = `${dir}/ran`;
      const cfg = writeConfig(
        dir,
        'hooks.json',
        hooksOn('BeforeTool', [
          { name: 'iso', command: `touch ${marker}`, isolation: 'namespace', onError: 'deny' },
        ]),
      );
      const r = await runCli(['dispatch', 'BeforeTool', '-c', cfg], {
        env: { ...process.env, HOOKWARDEN_BWRAP: bwrap, HOOKWARDEN_NAMESPACE: 'bwrap' },
      });
      expect(r.code).toBe(2);
      const result = JSON.parse(r.stdout);
      expect(result).toMatchObject({ decision: 'deny', decidedBy: 'iso' });
      expect(result.hooks[0].error).toMatchObject({
        code: 'isolation_unavailable',
        message: expect.stringMatching(/Fix: /),
      });
      const { existsSync } = await import('node:fs');
      expect(existsSync(marker)).toBe(false);
    },
  );

  it('limits.minIsolation raises every hook of a scope to namespace', async () => {
    const dir = tempDir();
    const cfg = writeConfig(dir, 'hooks.json', {
      limits: { minIsolation: { project: 'namespace' } },
      ...hooksOn('BeforeTool', [{ name: 'plain', command: "echo '{}'" }]),
    });
    const r = await runCli(['dispatch', 'BeforeTool', '-c', cfg], {
      env: { ...process.env, HOOKWARDEN_BWRAP: '/nonexistent/bwrap' },
    });
    expect(JSON.parse(r.stdout).hooks[0]).toMatchObject({ outcome: 'proceed', containment: 'namespace' });
  });
});
