// After each test file: every executor (pool) the file created was closed, no QuickJS runtime or
// context was left alive in a worker when its lane closed, no spawn server this file started is
// still running, and no http hook request is in flight. A leak fails the file (and `npm test`).
// Hook processes left running are checked once, after the whole suite (global-setup.ts).
import { afterAll } from 'vitest';
import { OPEN_HTTP_REQUESTS } from '../src/pool/http-lane.js';
import { watchPools } from './helpers/pool-watch.js';
import { settleSpawnServers } from './helpers/processes.js';

const pools = watchPools();

afterAll(async () => {
  // A pool whose close() is still running finishes it first (bounded).
  const until = Date.now() + 10_000;
  while (pools.open.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  const problems: string[] = [];
  if (pools.open.size > 0)
    problems.push(`${pools.open.size} executor pool(s) were never closed: call close() (withExecutor does)`);
  if (pools.leaks.length > 0)
    problems.push(
      `QuickJS leaks (a runtime or context alive besides the sandbox, or a call's state left in memory): ${JSON.stringify(pools.leaks)}`,
    );
  for (const p of [...pools.open]) await p.close();
  // Pools are closed now: a request still open outlived its executor.
  if (OPEN_HTTP_REQUESTS.size > 0)
    problems.push(`${OPEN_HTTP_REQUESTS.size} http hook request(s) outlived their executor`);
  // A closed lane waits for its server to exit: one still running was never closed.
  const servers = await settleSpawnServers(2000, process.pid);
  if (servers.length > 0)
    problems.push(
      `spawn server(s) still running: ${servers.map((s) => s.pid).join(', ')} (close the launcher or executor)`,
    );
  pools.stop();
  if (problems.length > 0) throw new Error(`leak check: ${problems.join('; ')}`);
});
