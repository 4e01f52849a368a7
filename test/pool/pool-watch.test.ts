// The suite's leak check reads the pool's diagnostic channels (test/helpers/pool-watch.ts): it sees
// a pool open until it is closed, and every QuickJS worker's stats when its lane closes.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';
import { POOL_CHANNELS } from '../../src/pool/pool-channels.js';
import { hooksOn, input } from '../helpers/fixture.js';
import { watchPools } from '../helpers/pool-watch.js';

describe('pool diagnostic channels', () => {
  it('show a pool open until closed, and each QuickJS worker as its lane closes', async () => {
    const watch = watchPools();
    const stats: unknown[] = [];
    const onLane = (m: unknown) => stats.push(...(m as { stats: unknown[] }).stats);
    subscribe(POOL_CHANNELS.jsLaneClosed, onLane);
    try {
      const hw = await createExecutor({
        config: hooksOn('BeforeTool', [{ type: 'js', code: 'export default () => ({ decision: "allow" })' }]),
        limits: { jsThreads: 1 },
        onWarning: () => {},
      });
      expect(watch.open.size).toBe(1);
      expect((await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }))).decision).toBe('allow');
      await hw.close();
      expect(watch.open.size).toBe(0);
      // The worker answered its stats as it was destroyed; none shows a leak.
      expect(stats).toEqual([
        expect.objectContaining({ liveRuntimes: 0, liveContexts: 0, memoryIsImage: true }),
      ]);
      expect(watch.leaks).toEqual([]);
    } finally {
      unsubscribe(POOL_CHANNELS.jsLaneClosed, onLane);
      watch.stop();
    }
  });
});
