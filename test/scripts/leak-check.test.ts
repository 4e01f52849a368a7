// The suite's leak check counts only what the suite started (issue 39): a daemon of this very
// checkout that the user runs for their own agent (its own XDG_RUNTIME_DIR, not a descendant of the
// suite) keeps a spawn server warm, and that server is not the suite's leak; a daemon the suite
// started (its socket in the suite's runtime directory) is, whoever its parent is now.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { BIN, CLIENT, runProgram } from '../helpers/cli.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { waitUntil } from '../helpers/native-client.js';
import { spawnServers } from '../helpers/processes.js';

const pids: number[] = [];
afterAll(() => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // gone already
    }
  }
});

/** A daemon outside this process's tree (a session of its own, its parent gone), as a user runs one. */
async function detachedDaemon(runtime: string): Promise<{ pid: number; server: number }> {
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  chmodSync(runtime, 0o700);
  const dir = tempDir();
  const config = writeConfig(dir, 'hooks.json', {
    hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: 'true' }] }] },
  });
  const env = { ...process.env, XDG_RUNTIME_DIR: runtime, XDG_STATE_HOME: join(dir, 'state') };
  const args = [process.execPath, BIN, 'claude-code', '--config', config];
  const socket = (await runProgram(CLIENT, ['--print-socket', ...args], { env })).stdout.trim();
  mkdirSync(join(runtime, 'hookwarden'), { recursive: true, mode: 0o700 });
  // setsid and a shell that exits at once: the daemon's parent is init, not this test.
  const sh = spawn(
    'setsid',
    [
      'sh',
      '-c',
      `"$0" "$1" daemon run --socket "$2" -- claude-code --config "$3" >/dev/null 2>&1 & echo $!`,
      process.execPath,
      BIN,
      socket,
      config,
    ],
    { env },
  );
  const pid = Number(await new Promise<string>((r) => sh.stdout.on('data', (d) => r(String(d)))));
  pids.push(pid);
  await waitUntil(
    () => (spawnSync('test', ['-S', socket]).status === 0 ? true : undefined),
    'the daemon to listen',
  );
  // A call with a command hook: the daemon's spawn server starts, and stays warm.
  await runProgram(CLIENT, args, {
    env,
    stdin: JSON.stringify({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    }),
  });
  const server = await waitUntil(() => spawnServers(pid)[0]?.pid, 'its spawn server');
  return { pid, server };
}

it('a spawn server of the user’s own daemon of this checkout is not the suite’s; one of a suite daemon is', async () => {
  const mine = await detachedDaemon(join(tempDir(), 'user-run'));
  expect(spawnServers().map((s) => s.pid)).toContain(mine.server);
  expect(spawnServers(undefined, true).map((s) => s.pid)).not.toContain(mine.server);
  // A daemon the suite started (in the suite's runtime directory) is the suite's, detached or not.
  const suite = await detachedDaemon(join(process.env.XDG_RUNTIME_DIR!, `leak-${process.pid}`));
  // Its socket is under the suite's XDG_RUNTIME_DIR: the leak check counts it.
  expect(spawnServers(undefined, true).map((s) => s.pid)).toContain(suite.server);
}, 120_000);
