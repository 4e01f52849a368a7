import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ProcessGroups } from '../../../sandbox/command/kill-group.js';
import type { Launcher } from '../../../sandbox/command/launch.js';
import { findNativeHelper } from '../../../sandbox/command/native-helper.js';
import { NodeSpawnLauncher } from '../../../sandbox/command/node-launcher.js';
import { runCommand as run } from '../../../sandbox/command/run-command.js';
import { SpawnServer } from '../../../sandbox/command/spawn-server.js';
import { findWrapper } from '../../../sandbox/command/wrapper.js';
import type { CommandTask } from '../../../src/contract/command-task.js';
import { commandTask, sh } from '../../helpers/command-task.js';
import { processesWithEnv, settleHookProcesses, spawnServers } from '../../helpers/processes.js';

const groups = new ProcessGroups();
afterEach(() => groups.killAll());

const task = commandTask;
const marked = (t: CommandTask) => processesWithEnv('HW_MARK', t.env.HW_MARK!);

async function noSurvivors(t: CommandTask): Promise<void> {
  const until = Date.now() + 3000;
  while (marked(t).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  expect(marked(t)).toEqual([]);
}

const serverPath = findNativeHelper('hw-spawn-server');
const LAUNCHERS: { name: string; launcher: Launcher }[] = [
  { name: 'spawn server', launcher: new SpawnServer(serverPath ?? 'hw-spawn-server was not built') },
  { name: 'Node spawn + hw-exec', launcher: new NodeSpawnLauncher(findWrapper('hw-exec')) },
  { name: 'Node spawn + prlimit(1)', launcher: new NodeSpawnLauncher(findWrapper('prlimit')) },
];
afterAll(async () => {
  for (const { launcher } of LAUNCHERS) await launcher.close();
});

it('finds the spawn server and both rlimit wrappers on this machine (built by npm run build)', () => {
  expect(serverPath).toMatch(/\/hw-spawn-server$/);
  expect([findWrapper('hw-exec'), findWrapper('prlimit')].map((w) => w?.kind)).toEqual([
    'hw-exec',
    'prlimit',
  ]);
});

describe.each(LAUNCHERS)('the subprocess runner ($name)', ({ launcher }) => {
  const runCommand = (t: CommandTask, g: ProcessGroups, signal?: AbortSignal) => run(t, g, signal, launcher);

  it('passes the input on stdin and returns exit code, stdout and stderr', async () => {
    const t = task(sh('cat; echo err >&2; exit 3'), { stdin: '{"event":"BeforeTool"}' });
    const r = await runCommand(t, groups);
    expect(r).toMatchObject({
      kind: 'exited',
      exitCode: 3,
      stdout: '{"event":"BeforeTool"}',
      stderr: 'err\n',
    });
  });

  it('builds the environment from scratch: no host variable, no secret, HOME and TMPDIR in the scratch dir', async () => {
    process.env.HW_TEST_API_TOKEN = 'super-secret-value';
    process.env.HW_TEST_EDITOR = 'vi';
    try {
      const t = task(
        { kind: 'argv', argv: ['/usr/bin/env'] },
        { inheritEnv: ['HW_TEST_API_TOKEN', 'HW_TEST_EDITOR'], env: { HOOK_EVENT: 'x', EXPLICIT: '1' } },
      );
      const r = await runCommand(t, groups);
      if (r.kind !== 'exited') throw new Error(r.kind);
      const env = Object.fromEntries(
        r.stdout
          .trim()
          .split('\n')
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      expect(env).toEqual({
        PATH: '/usr/local/bin:/usr/bin:/bin',
        LANG: 'C.UTF-8',
        TZ: 'UTC',
        HW_TEST_EDITOR: 'vi',
        HOOK_EVENT: 'x',
        EXPLICIT: '1',
        HOME: t.scratchDir,
        TMPDIR: t.scratchDir,
      });
      expect(r.stdout).not.toContain('super-secret-value');
    } finally {
      delete process.env.HW_TEST_API_TOKEN;
      delete process.env.HW_TEST_EDITOR;
    }
  });

  it('passes an inherited variable only when neither its name nor its current value carries a credential', async () => {
    const host = {
      HW_TEST_DATABASE_URL: 'postgres://app:hunter2@db.internal/app',
      HW_TEST_PLAIN_DB_URL: 'postgres://db.internal/app',
      HW_TEST_HTTP_PROXY: 'http://proxyuser:proxypass@proxy:3128',
      HW_TEST_NO_PROXY: 'localhost,.corp',
      HW_TEST_GH_PAT: 'abc',
      HW_TEST_NOTES: 'token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 inside',
    };
    Object.assign(process.env, host);
    try {
      const t = task({ kind: 'argv', argv: ['/usr/bin/env'] }, { inheritEnv: Object.keys(host) });
      const r = await runCommand(t, groups);
      if (r.kind !== 'exited') throw new Error(r.kind);
      const names = r.stdout
        .trim()
        .split('\n')
        .map((l) => l.slice(0, l.indexOf('=')))
        .filter((n) => n.startsWith('HW_TEST_'));
      expect(names.sort()).toEqual(['HW_TEST_NO_PROXY', 'HW_TEST_PLAIN_DB_URL']);
      expect(r.stdout).not.toMatch(/hunter2|proxypass|ghp_/);
    } finally {
      for (const k of Object.keys(host)) delete process.env[k];
    }
  });

  it('reports a command with a NUL byte as a spawn failure, never a rejected promise', async () => {
    const r = await runCommand(task(sh('echo a\u0000b')), groups);
    expect(r).toMatchObject({ kind: 'spawn_failed', message: expect.stringContaining('null bytes') });
  });

  it('runs in the sandbox root under the configured rlimits', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hw-root-'));
    const t = task(sh('pwd; ulimit -n; ulimit -f; ulimit -t'), {
      cwd: root,
      rlimits: { cpuSeconds: 7, openFiles: 64, fileSizeBytes: 512 * 1024, addressSpaceBytes: undefined },
    });
    const r = await runCommand(t, groups);
    if (r.kind !== 'exited') throw new Error(r.kind);
    expect(r.stdout.trim().split('\n')).toEqual([root, '64', '1024', '7']);
  });

  it('kills grandchildren on timeout: the whole process group goes', async () => {
    const t = task(sh('sleep 30 & sleep 30 & wait'), { deadlineMs: 1500 });
    const started = Date.now();
    const run = runCommand(t, groups);
    // sh and both sleeps are visible while running (the processes carry the task's marker).
    let seen = 0;
    while (seen < 3 && Date.now() - started < 1500) {
      seen = Math.max(seen, marked(t).length);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(seen).toBeGreaterThanOrEqual(3);
    const r = await run;
    expect(r.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(5000);
    await noSurvivors(t);
  });

  it('SIGKILLs a hook that ignores SIGTERM after the grace period', async () => {
    const t = task(sh("trap '' TERM; while true; do sleep 0.05; done"), {
      deadlineMs: 300,
      killGraceMs: 200,
    });
    const r = await runCommand(t, groups);
    expect(r.kind).toBe('timeout');
    await noSurvivors(t);
  });

  it('kills what a hook leaves behind in its group when it exits', async () => {
    const t = task(sh('sleep 30 & echo done'));
    const started = Date.now();
    const r = await runCommand(t, groups);
    expect(r).toMatchObject({ kind: 'exited', exitCode: 0, stdout: 'done\n' });
    expect(Date.now() - started).toBeLessThan(5000);
    await noSurvivors(t);
  });

  it('stops a stdout flood at the cap without buffering the excess', async () => {
    const t = task({ kind: 'argv', argv: ['/usr/bin/yes', 'flood'] }, { maxOutputBytes: 64 * 1024 });
    const r = await runCommand(t, groups);
    expect(r).toMatchObject({
      kind: 'output_limit',
      message: expect.stringContaining('stdout exceeded 65536 bytes'),
    });
    await noSurvivors(t);
  });

  it('stops a stderr flood too', async () => {
    const t = task(sh('yes err >&2'), { maxOutputBytes: 32 * 1024 });
    const r = await runCommand(t, groups);
    expect(r).toMatchObject({ kind: 'output_limit', message: expect.stringContaining('stderr') });
    await noSurvivors(t);
  });

  it('cannot deadlock on a hook that never reads a multi-megabyte stdin', async () => {
    const t = task(sh('sleep 0.2; echo ok'), { stdin: 'x'.repeat(8 * 1024 * 1024) });
    const r = await runCommand(t, groups);
    expect(r).toMatchObject({ kind: 'exited', exitCode: 0, stdout: 'ok\n' });
  });

  it('ends at once on abort and kills the group', async () => {
    const t = task(sh('sleep 30 & sleep 30'));
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 150);
    const r = await runCommand(t, groups, ac.signal);
    expect(r.kind).toBe('aborted');
    await noSurvivors(t);
  });

  it('reports a program that cannot be executed', async () => {
    const r = await runCommand(task({ kind: 'argv', argv: ['/nonexistent/hook'] }), groups);
    expect(r).toMatchObject({
      kind: 'exited',
      exitCode: 127,
      stderr: expect.stringContaining('/nonexistent/hook'),
    });
    const bad = await runCommand(task(sh('true'), { cwd: '/nonexistent-dir' }), groups);
    expect(bad.kind).toBe('spawn_failed');
  });

  it('leaves no tracked group behind', async () => {
    await runCommand(task(sh('true')), groups);
    expect(groups.live()).toEqual([]);
    expect(await settleHookProcesses()).toEqual([]);
  });
});

describe.each(LAUNCHERS.slice(0, 2))('$name', ({ launcher }) => {
  it('sets no_new_privs for the hook', async () => {
    const r = await run(task(sh('grep NoNewPrivs /proc/self/status')), groups, undefined, launcher);
    expect(r).toMatchObject({ kind: 'exited', stdout: expect.stringMatching(/NoNewPrivs:\s+1/) });
  });

  it('takes the hook down with the host when the host is SIGKILLed', async () => {
    const { spawn } = await import('node:child_process');
    const marker = randomUUID();
    const host = spawn(process.execPath, [
      new URL('../../fixtures/hosts/dies-while-hook-runs.mjs', import.meta.url).pathname,
      marker,
      launcher.kind,
    ]);
    const withMarker = () => processesWithEnv('HW_MARK', marker);
    let server = 0;
    try {
      const line = await new Promise<string>((resolve) =>
        host.stdout.once('data', (d) => resolve(String(d))),
      );
      server = Number(line.split(' ')[1]);
      expect(withMarker()).toHaveLength(1);
      if (launcher.kind === 'spawn-server')
        expect(spawnServers(host.pid).map((p) => p.pid)).toEqual([server]);
    } finally {
      host.kill('SIGKILL');
    }
    const until = Date.now() + 3000;
    while (withMarker().length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(withMarker()).toEqual([]);
    // The spawn server went with its executor (its parent-death signal).
    const serverRuns = () => spawnServers().some((p) => p.pid === server);
    while (serverRuns() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(serverRuns()).toBe(false);
  });
});
