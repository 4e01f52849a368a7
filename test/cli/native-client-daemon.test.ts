// The daemon's life (issue 25, item 2) and what it holds: started on demand with an environment of
// its own that carries none of the caller's secrets (not in /proc/<pid>/environ, not on its command
// line), `daemon status|stop`, the idle exit, its exit when hookwarden itself changes on disk; the
// client's digests agree with read-log.ts byte for byte; and where hookwarden-client could not be
// built, install writes the Node command and doctor says why.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shellWords } from '../../src/cli/claude-code/routing.js';
import { digestNow, type ReadKind } from '../../src/config/read-log.js';
import { runCli, runProgram } from '../helpers/cli.js';
import { mkfifo } from '../helpers/fifo.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';
import {
  copyCheckout,
  daemonEnv,
  daemonStatus,
  FELL_BACK,
  guarded,
  ls,
  NO_RM,
  rm,
  runClient,
  waitUntil,
} from '../helpers/native-client.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Starts the daemon the way a first call does, and waits until status shows it. */
async function startedOnDemand(args: string[], env: NodeJS.ProcessEnv, run = runClient) {
  const first = await run(args, ls, env);
  expect(FELL_BACK.exec(first.stderr)?.[1]).toBe('no daemon runs for this configuration yet');
  return waitUntil(async () => {
    const s = await daemonStatus(env);
    return s[0]?.status.pid === undefined ? undefined : s[0];
  }, 'the daemon started on demand');
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pid and its descendants. */
function tree(pid: number): number[] {
  const children = readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/stat`, 'latin1').split(') ')[1]?.split(' ')[1] === String(pid);
      } catch {
        return false;
      }
    })
    .map(Number);
  return [pid, ...children.flatMap(tree)];
}

describe('the daemon', () => {
  it('holds none of the caller’s environment but its allow-list: no secret in its environ or command line', async () => {
    const args = ['--config', guarded(tempDir())];
    const secret = 'hw-secret-value-8f3a1c';
    const env = daemonEnv({
      HW_PROBE_API_TOKEN: secret,
      GITHUB_TOKEN: secret,
      HW_PLAIN_VARIABLE: 'plain-9d2e',
    });
    const daemon = await startedOnDemand(args, env);
    expect((await runClient(args, rm, env)).code).toBe(2); // a hook ran: the spawn server is up
    for (const pid of tree(daemon.status.pid)) {
      const environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'latin1');
      expect(environ).not.toContain(secret);
      expect(cmdline).not.toContain(secret);
      expect(environ).not.toContain('HW_PLAIN_VARIABLE');
    }
  });

  it('status lists it, stop ends it and removes its socket; one started with a short idle period exits by itself', async () => {
    const args = ['--config', guarded(tempDir())];
    const env = daemonEnv();
    const daemon = await startedOnDemand(args, env);
    const human = await runCli(['claude-code', 'daemon', 'status'], { env });
    expect(human.stdout).toContain(`pid ${daemon.status.pid} (hookwarden`);
    expect(human.stdout).toContain(`runs: hookwarden claude-code ${args.join(' ')}`);
    const stop = await runCli(['claude-code', 'daemon', 'stop'], { env });
    expect(stop.stdout).toBe(`stopped pid ${daemon.status.pid}: ${daemon.socket}\n`);
    expect(alive(daemon.status.pid)).toBe(false);
    expect(readdirSync(`${env.XDG_RUNTIME_DIR}/hookwarden`).filter((n) => n.endsWith('.sock'))).toEqual([]);
    expect((await runCli(['claude-code', 'daemon', 'status'], { env })).stdout).toMatch(
      /^no hookwarden daemon runs/,
    );

    const idle = daemonEnv({ HOOKWARDEN_DAEMON_IDLE_SECONDS: '1' });
    const brief = await startedOnDemand(args, idle);
    expect((await runClient(args, rm, idle)).code).toBe(2);
    await waitUntil(() => !alive(brief.status.pid), 'the idle daemon to exit');
    expect(readFileSync(brief.status.log!, 'utf8')).toContain('"msg":"idle: exiting"');
  });

  it('exits when hookwarden itself changes on disk, and the call runs in process with the new code', async () => {
    // A checkout of its own: touching its bundle must not disturb other daemons.
    const copy = copyCheckout();
    const client = join(copy, 'dist/native/hookwarden-client');
    const bin = join(copy, 'bin/hookwarden');
    const args = ['--config', guarded(tempDir())];
    const env = daemonEnv();
    const run = (a: string[], input: string, e: NodeJS.ProcessEnv) =>
      runProgram(client, [process.execPath, bin, 'claude-code', ...a], { stdin: input, env: e });
    const daemon = await startedOnDemand(args, env, run);
    expect((await run(args, rm, env)).code).toBe(2);
    const bundle = join(copy, 'dist/cli/bundle/main.js');
    utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    const r = await run(args, ls, env);
    expect(FELL_BACK.exec(r.stderr)?.[1]).toMatch(/main\.js changed since it was loaded/);
    await waitUntil(() => !alive(daemon.status.pid), 'the daemon to exit');
  });
});

describe('a configuration that does not load', () => {
  it('is answered in process (fail closed); the daemon started for it says why in its log and exits', async () => {
    const dir = tempDir();
    const args = ['--config', writeConfig(dir, 'settings.hookwarden.json', '{"hooks": ')];
    const env = daemonEnv();
    const r = await runClient(args, rm, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/settings\.hookwarden\.json/);
    const logs = join(env.XDG_STATE_HOME!, 'hookwarden', 'daemon');
    const log = await waitUntil(() => {
      const files = existsSync(logs) ? readdirSync(logs) : [];
      const text = files.length === 1 ? readFileSync(join(logs, files[0]!), 'utf8') : '';
      return text.includes('"level":"error"') ? text : undefined;
    }, 'the daemon to log why it did not start');
    expect(log).toMatch(/"msg":"the configuration does not load: /);
    expect(await daemonStatus(env)).toEqual([]);
  });
});

describe('hookwarden-client’s digests', () => {
  it('agree with read-log.ts for every kind of read, and its SHA-256 with node:crypto', () => {
    const dir = tempDir();
    const driver = join(dir, 'digest-driver');
    const native = join(ROOT, 'src/cli/claude-code/native');
    const cc = spawnSync(
      'cc',
      [
        '-O2',
        '-Wall',
        '-Werror',
        `-I${native}`,
        '-o',
        driver,
        join(ROOT, 'test/fixtures/native/digest-driver.c'),
        join(native, 'client-wire.c'),
        join(native, 'sha256.c'),
      ],
      { encoding: 'utf8' },
    );
    expect(cc.stderr).toBe('');
    const big = Buffer.alloc(300_001);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251;
    writeFile(join(dir, 'big.bin'), '');
    writeFileSync(join(dir, 'big.bin'), big);
    writeFile(join(dir, 'empty'), '');
    writeFile(join(dir, 'tree', 'é-ü.json'), '{"a": 1}');
    writeFile(join(dir, 'tree', 'Zebra'), 'x');
    writeFile(join(dir, 'tree', '\u{1F600}.txt'), 'x');
    writeFile(join(dir, 'tree', '\uFB01.txt'), 'x'); // sorts differently in UTF-16 and in bytes
    mkdirSync(join(dir, 'tree', 'sub'));
    symlinkSync(join(dir, 'big.bin'), join(dir, 'link'));
    symlinkSync(join(dir, 'tree'), join(dir, 'dirlink'));
    mkfifo(dir, 'fifo');
    const paths = [
      'big.bin',
      'empty',
      'tree/é-ü.json',
      'link',
      'fifo',
      'none',
      'big.bin/under',
      'tree',
      'dirlink',
      'tree/sub',
    ];
    const reads: [ReadKind, string][] = [];
    for (const kind of ['file', 'file-nofollow', 'dir', 'exists', 'stat'] as const)
      for (const p of paths) reads.push([kind, join(dir, p)]);
    const letter = { file: 'f', 'file-nofollow': 'F', dir: 'd', exists: 'e', stat: 's' } as const;
    const out = spawnSync(
      driver,
      reads.map(([k, p]) => `${letter[k]}${p}`),
      { encoding: 'utf8' },
    );
    const got = out.stdout.trim().split('\n');
    expect(got.map((d, i) => [reads[i]![0], reads[i]![1].slice(dir.length), d])).toEqual(
      reads.map(([k, p]) => [k, p.slice(dir.length), digestNow(k, p)]),
    );
    for (const input of [
      Buffer.alloc(0),
      Buffer.from('abc'),
      Buffer.alloc(55, 1),
      Buffer.alloc(56, 2),
      Buffer.alloc(64, 3),
      big,
    ]) {
      const r = spawnSync(driver, ['-'], { input, encoding: 'utf8' });
      expect(r.stdout.trim()).toBe(createHash('sha256').update(input).digest('hex'));
    }
  });
});

describe('where hookwarden-client could not be built', () => {
  it('install writes the Node adapter command, and doctor says why', async () => {
    const copy = copyCheckout();
    const build = spawnSync(process.execPath, [join(copy, 'dist/scripts/build-client.js')], {
      env: { ...process.env, CC: '/nonexistent/cc' },
      encoding: 'utf8',
    });
    expect(build.stderr).toMatch(/could not build hookwarden-client: .*ENOENT/);
    const bin = join(copy, 'bin/hookwarden');
    const settings = writeConfig(tempDir(), 'settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: NO_RM }] }] },
    });
    const install = await runProgram(process.execPath, [bin, 'claude-code', 'install', settings]);
    const command = JSON.parse(install.stdout).hooks.PreToolUse[0].hooks[0].command as string;
    expect(shellWords(command).slice(0, 3)).toEqual([process.execPath, bin, 'claude-code']);
    expect(install.stderr).toMatch(
      /the hook command is the Node adapter \(could not build hookwarden-client: /,
    );
    const doctor = await runProgram(process.execPath, [bin, 'doctor', '--json']);
    const check = JSON.parse(doctor.stdout).checks.find(
      (c: { name: string }) => c.name === 'hookwarden-client',
    );
    expect(check).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/writes the Node adapter command .*could not build hookwarden-client/),
      fix: expect.stringContaining('C compiler'),
    });
  });
});
