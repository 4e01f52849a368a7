// The spawn server (sandbox/native/spawn-server.c, sandbox/command/spawn-server.ts): it runs clean,
// many hooks share it, it dies with its executor, and when it is killed under running hooks they
// fail with spawn_server_lost (fail-closed ones deny), nothing is left behind, and the next hook
// gets a new server. Real processes throughout; the server is killed by PID.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ProcessGroups } from '../../../sandbox/command/kill-group.js';
import { findNativeHelper } from '../../../sandbox/command/native-helper.js';
import { runCommand } from '../../../sandbox/command/run-command.js';
import { SpawnServer, STUCK_AFTER_MS } from '../../../sandbox/command/spawn-server.js';
import type { CommandTask } from '../../../src/contract/command-task.js';
import { commandTask, sh } from '../../helpers/command-task.js';
import { hooksOn, input, withExecutor } from '../../helpers/fixture.js';
import { dispatchInLeakyHost } from '../../helpers/host.js';
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

describe('the spawn server', () => {
  it('runs clean: an empty environment, no inherited descriptor, cwd /, its own session, a child of the executor', async () => {
    // The hook reports on its parent. The host's own parent leaks fd 250 to it (no close-on-exec).
    const report =
      'printf \'{"additionalContext":"%s"}\' "$( { ls -l /proc/$PPID/fd; echo --env--; ' +
      "tr '\\0' '\\n' < /proc/$PPID/environ; echo --cwd--; readlink /proc/$PPID/cwd; echo --stat--; " +
      'cat /proc/$PPID/stat; } | base64 -w0)"';
    const options = {
      config: hooksOn('BeforeTool', [{ command: report }]),
      root: tmpdir(),
      event: 'BeforeTool',
      input: input({ toolName: 'Bash' }),
    };
    const { result, plainFds, hostPid } = await dispatchInLeakyHost(options);
    expect(plainFds).toContain('250');
    const dump = Buffer.from(result.additionalContext ?? '', 'base64').toString('utf8');
    const [fds = '', rest = ''] = dump.split('--env--\n');
    const [environ = '', rest2 = ''] = rest.split('--cwd--\n');
    const [cwd = '', stat = ''] = rest2.split('--stat--\n');
    const open = [...fds.matchAll(/ (\d+) -> (.*)$/gm)].map((m) => ({ fd: m[1]!, target: m[2]! }));
    expect(open.map((o) => o.fd)).not.toContain('250');
    // Its control channel (0, 1, 2) and its own: pipes of running hooks, the signalfd.
    for (const { target } of open) expect(target).toMatch(/^(socket|pipe|anon_inode):/);
    expect(environ).toBe('');
    expect(cwd.trim()).toBe('/');
    const [pid, , , ppid, , session] = stat
      .replace(/\(.*\)/, 'x')
      .trim()
      .split(' ');
    expect(Number(ppid)).toBe(hostPid);
    expect(session).toBe(pid);
  });

  it('starts many hooks at once, each with its own input and output', async () => {
    const runs = Array.from({ length: 40 }, (_, i) =>
      runCommand(
        task(`cat; echo " $$ $PPID"; echo err-${i} >&2`, { stdin: `in-${i}` }),
        groups,
        undefined,
        launcher,
      ),
    );
    const results = await Promise.all(runs);
    const parents = new Set<string>();
    for (const [i, r] of results.entries()) {
      expect(r).toMatchObject({ kind: 'exited', exitCode: 0, stderr: `err-${i}\n` });
      if (r.kind !== 'exited') continue;
      const [text, , ppid] = r.stdout.trim().split(' ');
      expect(text).toBe(`in-${i}`);
      parents.add(ppid!);
    }
    // One server started them all.
    expect([...parents]).toEqual([String(launcher.pid)]);
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
  it('fails them with spawn_server_lost (fail-closed: deny), leaves no process behind, and the next dispatch gets a new server', async () => {
    const marker = randomUUID();
    const config = {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              {
                name: 'slow',
                command: 'sleep 30 & sleep 30 & wait',
                onError: 'deny',
                env: { HW_MARK: marker },
              },
            ],
          },
        ],
        AfterTool: [{ hooks: [{ name: 'quick', command: 'echo "{\\"additionalContext\\":\\"$PPID\\"}"' }] }],
      },
    };
    await withExecutor({ config, root: tmpdir(), limits: { killGraceMs: 200 } }, async (hw) => {
      const inFlight = [1, 2].map(() => hw.dispatch('BeforeTool', input({ toolName: 'Bash' })));
      // Each hook is a shell and two sleeps.
      await until(() => processesWithEnv('HW_MARK', marker).length === 6, 'both hooks to start');
      // This file's own launcher has a server too.
      const executorServers = () => spawnServers(process.pid).filter((s) => s.pid !== launcher.pid);
      const servers = executorServers();
      expect(servers).toHaveLength(1);
      const killed = servers[0]!.pid;
      process.kill(killed, 'SIGKILL');
      for (const result of await Promise.all(inFlight)) {
        expect(result).toMatchObject({ decision: 'deny', decidedBy: 'slow' });
        expect(result.hooks[0]).toMatchObject({
          outcome: 'error',
          error: {
            code: 'spawn_server_lost',
            message: expect.stringContaining(`the spawn server (pid ${killed}) was killed by SIGKILL`),
            details: { pid: killed, signal: 'SIGKILL' },
          },
        });
      }
      await until(() => processesWithEnv('HW_MARK', marker).length === 0, 'every process of the hooks to go');
      const next = await hw.dispatch('AfterTool', input({ toolName: 'Bash' }));
      expect(next.hooks[0]!.outcome).toBe('proceed');
      const again = executorServers().map((s) => s.pid);
      expect(again).toHaveLength(1);
      expect(again[0]).not.toBe(killed);
      // The quick hook's parent is the new server.
      expect(next.additionalContext).toBe(String(again[0]));
    });
    expect(spawnServers(process.pid).filter((s) => s.pid !== launcher.pid)).toEqual([]);
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
