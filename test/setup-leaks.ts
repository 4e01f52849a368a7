// After each test file: every executor (pool) the file created was closed, and no QuickJS runtime
// or context was left alive in a worker when its lane closed, and no spawn server this file started
// is still running. A leak fails the file (and `npm test`).
// Hook processes left running are checked once, after the whole suite (global-setup.ts).
import { afterAll } from 'vitest';
import { LEAKS } from '../src/pool/js-lane.js';
import { OPEN_POOLS } from '../src/pool/pool.js';
import { settleSpawnServers } from './helpers/processes.js';

afterAll(async () => {
  // A pool whose close() is still running finishes it first (bounded).
  const until = Date.now() + 10_000;
  while (OPEN_POOLS.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  const problems: string[] = [];
  if (OPEN_POOLS.size > 0)
    problems.push(`${OPEN_POOLS.size} executor pool(s) were never closed: call close() (withExecutor does)`);
  if (LEAKS.length > 0) problems.push(`QuickJS runtimes/contexts left alive: ${JSON.stringify(LEAKS)}`);
  for (const p of [...OPEN_POOLS]) await p.close();
  // A closed lane waits for its server to exit: one still running was never closed.
  const servers = await settleSpawnServers(2000, process.pid);
  if (servers.length > 0)
    problems.push(
      `spawn server(s) still running: ${servers.map((s) => s.pid).join(', ')} (close the launcher or executor)`,
    );
  LEAKS.length = 0;
  if (problems.length > 0) throw new Error(`leak check: ${problems.join('; ')}`);
});
