// The test suite's pool and QuickJS leak checks, on the pool's diagnostic channels
// (src/pool/pool-channels.ts): which executor pools are open, and which QuickJS workers showed a
// leak when their lane closed (a runtime or context alive besides the sandbox's, or a call's state
// left in memory: the memory is not, byte for byte, an image).
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { POOL_CHANNELS } from '../../src/pool/pool-channels.js';

interface Closable {
  close(): Promise<void>;
}

type WorkerStats = { liveRuntimes?: number; liveContexts?: number; memoryIsImage?: boolean };

export interface PoolWatch {
  /** Pools made since the watch started and not closed yet. */
  readonly open: Set<Closable>;
  /** Stats of the workers that showed a leak when their lane closed. */
  readonly leaks: Record<string, unknown>[];
  stop(): void;
}

/** Starts watching the pools made from now on (stop() unsubscribes). */
export function watchPools(): PoolWatch {
  const open = new Set<Closable>();
  const leaks: Record<string, unknown>[] = [];
  const opened = (pool: unknown) => open.add(pool as Closable);
  const closed = (pool: unknown) => open.delete(pool as Closable);
  const laneClosed = (message: unknown) => {
    for (const s of (message as { stats: readonly WorkerStats[] }).stats) {
      if ((s.liveRuntimes ?? 0) > 0 || (s.liveContexts ?? 0) > 0 || s.memoryIsImage === false)
        leaks.push({ ...s, at: 'js-lane close' });
    }
  };
  subscribe(POOL_CHANNELS.opened, opened);
  subscribe(POOL_CHANNELS.closed, closed);
  subscribe(POOL_CHANNELS.jsLaneClosed, laneClosed);
  return {
    open,
    leaks,
    stop() {
      unsubscribe(POOL_CHANNELS.opened, opened);
      unsubscribe(POOL_CHANNELS.closed, closed);
      unsubscribe(POOL_CHANNELS.jsLaneClosed, laneClosed);
    },
  };
}
