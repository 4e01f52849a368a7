// The spawn server (sandbox/native/spawn-server.c, sandbox/command/spawn-server.ts): it runs clean,
// many hooks share it, it dies with its executor, and when it is killed under running hooks they
// fail with spawn_server_lost (fail-closed ones deny), nothing is left behind, and the next hook
// gets a new server. Real processes throughout; the server is killed by PID.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  constants,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ProcessGroups } from '../../../sandbox/command/kill-group.js';
import { findNativeHelper } from '../../../sandbox/command/native-helper.js';
import { runCommand } from '../../../sandbox/command/run-command.js';
import { SpawnServer, STUCK_AFTER_MS } from '../../../sandbox/command/spawn-server.js';
import type { CommandTask } from '../../../src/contract/command-task.js';
import { commandTask, sh } from '../../helpers/command-task.js';
import { mkfifo, waitingPair } from '../../helpers/fifo.js';
import { hooksOn, input, tempDir, withExecutor } from '../../helpers/fixture.js';
import { startLeakyHost } from '../../helpers/host.js';
import { processesWithEnv, spawnServers } from '../../helpers/processes.js';

const SERVER = findNativeHelper('hw-spawn-server')!;
const groups = new ProcessGroups();
const launcher = new SpawnServer(SERVER);
afterEach(() => groups.killAll());
afterAll(async () => {
  groups.dispose();
  await launcher.close();
});

const task = (command: string, extra: Partial<CommandTask> = {}) => commandTask(sh(command), extra);

/** Waits for `condition` (polling /proc-backed state), bounded only to catch a hang. */
async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The parent of `pid` as this process sees it. */
const parentPid = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
};

/** What /proc says of a process (read here, as root). */
function inspect(pid: number) {
  const dir = `/proc/${pid}/fd`;
  return {
    fds: readdirSync(dir).map((fd) => ({ fd, target: readlinkSync(`${dir}/${fd}`) })),
    environ: readFileSync(`/proc/${pid}/environ`, 'latin1'),
    cwd: readlinkSync(`/proc/${pid}/cwd`),
    stat: readFileSync(`/proc/${pid}/stat`, 'latin1'),
    owner: statSync(`/proc/${pid}/environ`).uid,
  };
}

describe('the spawn server', () => {
  it('runs clean: an empty environment, no inherited descriptor, cwd /, its own session, not dumpable, a child of the executor', async () => {
    // Looked at from here while a hook runs (a contained hook cannot see the server at all). The
    // host's own parent leaks fd 250 to it (no close-on-exec).
    const dir = tempDir('hw-clean-');
    const { hook, lines, feed } = waitingPair(dir);
    const options = {
      config: hooksOn('BeforeTool', [hook]),
      root: tmpdir(),
      event: 'BeforeTool',
      input: input({ toolName: 'Bash' }),
    };
    const host = startLeakyHost(options);
    expect(await lines.next()).toBe('started');
    const [server] = spawnServers(host.pid);
    expect(server).toBeDefined();
    const { fds, environ, cwd, stat, owner } = inspect(server!.pid);
    feed.send();
    const { result, plainFds } = await host.done;
    expect(result.hooks[0]).toMatchObject({ outcome: 'allow', containment: 'contained' });
    expect(plainFds).toContain('250');
    expect(fds.map((o) => o.fd)).not.toContain('250');
    // Its control channel (0, 1, 2) and its own: pipes of running hooks, the signalfd, its pidfd,
    // Landlock's ruleset and the namespaces it keeps for namespace mode (never a file of the host's).
    for (const { target } of fds) expect(target).toMatch(/^(socket|pipe|anon_inode|mnt|net):/);
    expect(environ).toBe('');
    expect(cwd).toBe('/');
    expect(owner).toBe(0);
    const [pid, , , ppid, , session] = stat
      .replace(/\(.*\)/, 'x')
      .trim()
      .split(' ');
    expect(Number(ppid)).toBe(host.pid);
    expect(session).toBe(pid);
  });

  it('starts many hooks at once, each with its own input and output, each contained (pid 1 of its own)', async () => {
    expect(await runCommand(task('true'), groups, undefined, launcher)).toMatchObject({ kind: 'exited' });
    const server = launcher.pid;
    const runs = Array.from({ length: 40 }, (_, i) =>
      runCommand(
        task(`cat; echo " $$ $PPID"; echo err-${i} >&2`, { stdin: `in-${i}` }),
        groups,
        undefined,
        launcher,
      ),
    );
    const results = await Promise.all(runs);
    for (const [i, r] of results.entries()) {
      expect(r).toMatchObject({
        kind: 'exited',
        exitCode: 0,
        stderr: `err-${i}\n`,
        sandbox: { containment: 'contained' },
      });
      if (r.kind !== 'exited') continue;
      // Each is the first process of its own PID namespace; its parent is outside it.
      expect(r.stdout.trim().split(' ')).toEqual([`in-${i}`, '1', '0']);
    }
    // One server started them all.
    expect(launcher.pid).toBe(server);
  });

  it('kills a hook released before the server said it started (a timeout or abort in that moment)', async () => {
    const marker = randomUUID();
    const started = mkfifo(tempDir('hw-orphan-'), 'started');
    const fd = openSync(started, constants.O_RDWR | constants.O_NONBLOCK);
    const nothing = () => {};
    const handle = launcher.start(
      {
        argv: ['/bin/sh', '-c', `echo started > ${started}; exec sleep 300`],
        env: { HOOK_EVENT: 'BeforeTool', HW_MARK: marker },
        fd3: undefined,
        cwd: tmpdir(),
        limits: { cpuSeconds: 10, openFiles: 64, fileSizeBytes: 1 << 20, addressSpaceBytes: undefined },
        runAs: undefined,
        stdin: '',
        maxOutputBytes: 1024,
        contain: 'prefer',
        dropCapabilities: true,
        maxProcesses: 64,
      },
      { started: nothing, output: nothing, closed: nothing, exited: nothing, failed: nothing, lost: nothing },
    );
    // At once, and then this thread waits for the hook without giving the event loop a turn: the
    // hook runs before its STARTED can be read, as when a deadline passes in that moment.
    handle.release();
    const pause = new Int32Array(new SharedArrayBuffer(4));
    const buf = Buffer.alloc(64);
    for (const end = Date.now() + 10_000; Date.now() < end; Atomics.wait(pause, 0, 0, 5)) {
      try {
        if (readSync(fd, buf) > 0) break;
      } catch {}
    }
    closeSync(fd);
    expect(processesWithEnv('HW_MARK', marker).length).toBeGreaterThan(0);
    await until(() => processesWithEnv('HW_MARK', marker).length === 0, 'the released hook to be killed');
  });

  it('relays output up to the cap byte for byte, and one byte more is an output limit', async () => {
    const cap = 256 * 1024;
    const exact = await runCommand(
      task(`yes abcdefg | head -c ${cap}`, { maxOutputBytes: cap }),
      groups,
      undefined,
      launcher,
    );
    expect(exact).toMatchObject({ kind: 'exited', exitCode: 0 });
    if (exact.kind === 'exited') expect(exact.stdout).toBe('abcdefg\n'.repeat(cap / 8));
    const over = await runCommand(
      task(`yes abcdefg | head -c ${cap + 1}`, { maxOutputBytes: cap }),
      groups,
      undefined,
      launcher,
    );
    expect(over).toMatchObject({ kind: 'output_limit', limitBytes: cap });
  });

  it('kills what it still runs and exits when its launcher closes', async () => {
    const own = new SpawnServer(SERVER);
    const t = task('sleep 30 & sleep 30 & wait');
    const running = runCommand(t, groups, undefined, own);
    await until(() => processesWithEnv('HW_MARK', t.env.HW_MARK!).length === 3, 'the hook to start');
    const pid = own.pid;
    await own.close();
    const r = await running;
    expect(r).toMatchObject({ kind: 'spawn_server_lost', server: { pid } });
    await until(() => processesWithEnv('HW_MARK', t.env.HW_MARK!).length === 0, 'the hook to go');
    expect(spawnServers().map((s) => s.pid)).not.toContain(pid);
  });

  it('stops at a malformed request, starting nothing, and exits when its stdin closes', async () => {
    const run = async (request: Buffer | undefined) => {
      const server = spawn(SERVER, [String(process.pid)], { env: {}, stdio: 'pipe' });
      let stderr = '';
      server.stderr.on('data', (d) => {
        stderr += d;
      });
      server.stdin.end(request);
      const code = await new Promise((r) => server.on('close', r));
      return { code, stderr };
    };
    // A SPAWN frame with an empty argv.
    const bad = Buffer.alloc(4 + 1 + 4 + 12 + 40 + 4 + 4 + 4 + 4 + 4);
    bad.writeUInt32LE(bad.length - 4, 0);
    bad[4] = 1;
    expect(await run(bad)).toEqual({
      code: 2,
      stderr: expect.stringContaining('protocol error: bad argv count'),
    });
    const huge = Buffer.alloc(9);
    huge.writeUInt32LE(0xffff_ffff, 0);
    expect(await run(huge)).toEqual({ code: 2, stderr: expect.stringContaining('frame too large') });
    expect(await run(undefined)).toEqual({ code: 0, stderr: '' });
  });
});

describe('a spawn server killed under running hooks', () => {
  it('runs them again once on a new server: their own answers decide, and their records say so', async () => {
    const marker = randomUUID();
    const dir = tempDir('hw-lost-');
    // First run: announce and wait for ever; the run after the loss answers at once (a marker file).
    const slow = (name: string) => ({
      name,
      command: `if [ -e ${dir}/${name} ]; then echo '{"decision":"deny","reason":"${name} decided"}'; exit 0; fi; touch ${dir}/${name}; sleep 30 & sleep 30 & wait`,
      onError: 'skip',
      env: { HW_MARK: marker },
    });
    const config = {
      hooks: { BeforeTool: [{ hooks: [slow('first')] }], AfterTool: [{ hooks: [slow('second')] }] },
    };
    await withExecutor({ config, root: tmpdir(), limits: { killGraceMs: 200 } }, async (hw) => {
      const inFlight = [
        hw.dispatch('BeforeTool', input({ toolName: 'Bash' })),
        hw.dispatch('AfterTool', input({ toolName: 'Bash' })),
      ];
      // Each hook is a shell and two sleeps.
      await until(() => processesWithEnv('HW_MARK', marker).length === 6, 'both hooks to start');
      // This file's own launcher has a server too.
      const executorServers = () => spawnServers(process.pid).filter((s) => s.pid !== launcher.pid);
      const servers = executorServers();
      expect(servers).toHaveLength(1);
      const killed = servers[0]!.pid;
      process.kill(killed, 'SIGKILL');
      const [before, after] = await Promise.all(inFlight);
      expect(before).toMatchObject({ decision: 'deny', reason: 'first decided', decidedBy: 'first' });
      for (const result of [before!, after!]) {
        expect(result.hooks).toHaveLength(1);
        expect(result.hooks[0]).toMatchObject({
          containment: 'contained',
          retried: {
            code: 'spawn_server_lost',
            message: expect.stringContaining(`the spawn server (pid ${killed}) was killed by SIGKILL`),
            details: { pid: killed, signal: 'SIGKILL' },
          },
        });
      }
      await until(() => processesWithEnv('HW_MARK', marker).length === 0, 'every process of the hooks to go');
      const again = executorServers().map((s) => s.pid);
      expect(again).toHaveLength(1);
      expect(again[0]).not.toBe(killed);
    });
    expect(spawnServers(process.pid).filter((s) => s.pid !== launcher.pid)).toEqual([]);
  });

  it('lost twice: spawn_server_lost, and the hook is fail-closed (deny); no process is left behind', async () => {
    const marker = randomUUID();
    const config = hooksOn('BeforeTool', [
      { name: 'slow', command: 'sleep 30 & sleep 30 & wait', onError: 'deny', env: { HW_MARK: marker } },
    ]);
    await withExecutor({ config, root: tmpdir(), limits: { killGraceMs: 200 } }, async (hw) => {
      const executorServers = () => spawnServers(process.pid).filter((s) => s.pid !== launcher.pid);
      const result = hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      const killed: number[] = [];
      // The hook's shell, a child of the server (the sleeps are its children).
      const hookOf = (server: number) =>
        processesWithEnv('HW_MARK', marker).some((p) => parentPid(p.pid) === server);
      for (let round = 0; round < 2; round++) {
        await until(
          () => executorServers().some((s) => !killed.includes(s.pid) && hookOf(s.pid)),
          'the hook to start on a new server',
        );
        const server = executorServers().find((s) => !killed.includes(s.pid))!.pid;
        killed.push(server);
        process.kill(server, 'SIGKILL');
      }
      const r = await result;
      await until(() => processesWithEnv('HW_MARK', marker).length === 0, 'the hook to go');
      expect(r).toMatchObject({ decision: 'deny', decidedBy: 'slow' });
      expect(r.hooks[0]).toMatchObject({
        outcome: 'error',
        error: { code: 'spawn_server_lost', details: { pid: killed[1], signal: 'SIGKILL' } },
        retried: { code: 'spawn_server_lost', details: { pid: killed[0], signal: 'SIGKILL' } },
      });
    });
  });
});

describe('a spawn server that stops answering', () => {
  it(`is replaced after ${STUCK_AFTER_MS} ms: its hooks are lost, the next one starts on a new server`, async () => {
    const own = new SpawnServer(SERVER);
    try {
      expect(await runCommand(task('true'), groups, undefined, own)).toMatchObject({ kind: 'exited' });
      const stuck = own.pid!;
      // Stopped (as a clone waiting for a child stopped before its exec would be).
      process.kill(stuck, 'SIGSTOP');
      const r = await runCommand(task('true', { deadlineMs: 30_000 }), groups, undefined, own);
      expect(r).toMatchObject({
        kind: 'spawn_server_lost',
        message: expect.stringContaining(`started no hook for ${STUCK_AFTER_MS} ms`),
        server: { pid: stuck, signal: 'SIGKILL' },
      });
      expect(await runCommand(task('true'), groups, undefined, own)).toMatchObject({
        kind: 'exited',
        exitCode: 0,
      });
      expect(own.pid).not.toBe(stuck);
    } finally {
      await own.close();
    }
  }, 60_000);
});
