// Before the whole suite: Claude Code daemons started on demand (hookwarden-client falls back and
// the adapter starts one, as in the install tests) live in a socket and state directory of the
// suite's own, and are stopped at its end. After the whole suite: no process started as a hook, and
// no spawn server, may still be running. Vitest only logs an error thrown here, so the leaks are
// also written to .vitest-leaks.json, which `npm test` checks (scripts/check-leaks.ts) to fail the run.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { settleHookProcesses, settleSpawnServers } from './helpers/processes.js';

const LEAKS = new URL('../.vitest-leaks.json', import.meta.url);
const BIN = fileURLToPath(new URL('../bin/hookwarden', import.meta.url));

export default function setup() {
  rmSync(LEAKS, { force: true });
  // Inherited by every test file's process (forks), and by what they start. On a tmpfs, like a real
  // runtime directory (hooks' scratch directories go there too), and open to traversal: hooks that
  // run as nobody must reach their scratch directory (daemons keep theirs in a 0700 subdirectory).
  const home = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'hw-suite-'));
  chmodSync(home, 0o711);
  const run = join(home, 'run');
  mkdirSync(run, { mode: 0o711 });
  chmodSync(run, 0o711);
  process.env.XDG_RUNTIME_DIR = run;
  process.env.XDG_STATE_HOME = join(home, 'state');
  return async () => {
    spawnSync(process.execPath, [BIN, 'claude-code', 'daemon', 'stop'], {
      env: process.env,
      stdio: 'ignore',
    });
    rmSync(home, { recursive: true, force: true });
    const left = [...(await settleHookProcesses(5000, 'suite')), ...(await settleSpawnServers(5000))];
    if (left.length > 0) {
      for (const p of left) process.kill(p.pid, 'SIGKILL');
      writeFileSync(LEAKS, `${JSON.stringify(left, null, 2)}\n`);
      throw new Error(
        `hook processes or spawn servers left running after the test suite: ${left.map((p) => `${p.pid} ${p.cmdline}`).join('; ')}`,
      );
    }
  };
}
