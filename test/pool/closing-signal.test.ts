// Many hooks in flight at once each link to the pool's closing signal: that is not a leak, and
// Node must not print a MaxListenersExceededWarning for it.
import { afterEach, describe, expect, it } from 'vitest';
import { hooksOn, input, withExecutor } from '../helpers/fixture.js';

describe('the pool closing signal', () => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  afterEach(() => {
    process.off('warning', onWarning);
  });

  it('16 command hooks running at once print no listener-leak warning', async () => {
    process.on('warning', onWarning);
    await withExecutor(
      {
        config: hooksOn('BeforeTool', [{ argv: ['/bin/sleep', '0.2'] }]),
        limits: { maxConcurrentCommands: 16 },
      },
      async (executor) => {
        const results = await Promise.all(
          Array.from({ length: 16 }, () => executor.dispatch('BeforeTool', input({ toolName: 'Bash' }))),
        );
        expect(results.map((r) => r.hooks[0]?.outcome)).toEqual(Array(16).fill('proceed'));
      },
    );
    // Warnings are emitted on the next tick.
    await new Promise((r) => setImmediate(r));
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });
});
