// The QuickJS lane's leak check, read by the test suite: when a lane closes, each worker must have no
// QuickJS runtime or context besides its sandbox's, and no call's state left in its memory (it is
// byte for byte an image).

/** What the check found, per worker (the test suite fails when it is not empty). */
export const LEAKS: Record<string, unknown>[] = [];

type WorkerStats = { liveRuntimes?: number; liveContexts?: number; memoryIsImage?: boolean };

/** Records the workers' stats that show a leak. */
export function recordLeaks(stats: readonly unknown[]): void {
  for (const s of stats as WorkerStats[]) {
    if ((s.liveRuntimes ?? 0) > 0 || (s.liveContexts ?? 0) > 0 || s.memoryIsImage === false)
      LEAKS.push({ ...s, at: 'js-lane close' });
  }
}
