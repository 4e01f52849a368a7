// After the whole suite: no process started as a hook, and no spawn server, may still be running.
// Vitest only logs an error thrown here, so the leaks are also written to .vitest-leaks.json, which
// `npm test` checks (scripts/check-leaks.ts) to fail the run.
import { rmSync, writeFileSync } from 'node:fs';
import { settleHookProcesses, settleSpawnServers } from './helpers/processes.js';

const LEAKS = new URL('../.vitest-leaks.json', import.meta.url);

export default function setup() {
  rmSync(LEAKS, { force: true });
  return async () => {
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
