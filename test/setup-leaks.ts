// After each test file: every executor (pool) the file created was closed, no QuickJS runtime or
// context was left alive in a worker when its lane closed, and no http hook request is in flight. A leak fails the file (and `npm test`).
// Hook processes left running are checked once, after the whole suite (global-setup.ts).
import { afterAll } from 'vitest';
import { OPEN_HTTP_REQUESTS } from '../src/pool/http-lane.js';
import { LEAKS } from '../src/pool/js-lane.js';
import { OPEN_POOLS } from '../src/pool/pool.js';

afterAll(async () => {
  // A pool whose close() is still running finishes it first (bounded).
  const until = Date.now() + 10_000;
  while (OPEN_POOLS.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  const problems: string[] = [];
  if (OPEN_POOLS.size > 0)
    problems.push(`${OPEN_POOLS.size} executor pool(s) were never closed: call close() (withExecutor does)`);
  if (LEAKS.length > 0) problems.push(`QuickJS runtimes/contexts left alive: ${JSON.stringify(LEAKS)}`);
  for (const p of [...OPEN_POOLS]) await p.close();
  // Pools are closed now: a request still open outlived its executor.
  if (OPEN_HTTP_REQUESTS.size > 0)
    problems.push(`${OPEN_HTTP_REQUESTS.size} http hook request(s) outlived their executor`);
  LEAKS.length = 0;
  if (problems.length > 0) throw new Error(`leak check: ${problems.join('; ')}`);
});
