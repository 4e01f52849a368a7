// Waiting on an executor's async events (no sleeps).
import type { AsyncCompletedEvent, Executor } from '../../src/index.js';
import { hooksOn, printing } from './fixture.js';

/** The next `n` `async.completed` events of an executor. */
export function completions(hw: Executor, n = 1): Promise<AsyncCompletedEvent[]> {
  const seen: AsyncCompletedEvent[] = [];
  return new Promise((resolve) => {
    const off = hw.on('async.completed', (e) => {
      seen.push(e);
      if (seen.length === n) {
        off();
        resolve(seen);
      }
    });
  });
}

/** A tenant's hooks: one asyncRewake hook on BeforeTool that denies with "<tenant> says no". */
export const saysNo = (tenant: string): Record<string, unknown> =>
  hooksOn('BeforeTool', [
    printing({ decision: 'deny', reason: `${tenant} says no` }, { name: 'bg', asyncRewake: true }),
  ]);
