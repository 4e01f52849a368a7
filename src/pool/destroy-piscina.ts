// Destroying a Piscina pool whose worker threads are still loading their module can abort the whole
// process on Node 20 (an internal assertion in require(esm) when a thread is terminated mid-load). So a
// pool is destroyed only once every thread has answered a trivial task (each thread is busy with one
// task at a time, so N concurrent tasks reach N threads), or after a bound if a thread never answers.
// The probes' answers are returned (the QuickJS lane's are each worker's stats: its leak check).
import type { Piscina } from 'piscina';

export async function destroyWhenLoaded(
  pool: Piscina,
  threads: number,
  probe: { name?: string; task?: unknown } = {},
  boundMs = 5000,
): Promise<unknown[]> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, boundMs);
    timer.unref();
  });
  const answers: unknown[] = [];
  const probes = Array.from({ length: threads }, () =>
    pool
      .run(probe.task ?? null, probe.name === undefined ? {} : { name: probe.name })
      .then((a: unknown) => {
        answers.push(a);
      })
      .catch(() => {}),
  );
  await Promise.race([Promise.all(probes), bound]);
  clearTimeout(timer);
  await pool.destroy();
  return answers;
}
