// A parallel event's re-check denies when any guard wants another input than the one every guard
// was shown, even if the last rewrite restores it. Found by the invariant-1 property (fuzz seed
// 20261203, case 12 617): two trusted guards that undo each other's rewrites loop to maxHookCalls
// and deny on a serial BeforeTool, but a project file that made BeforeTool parallel turned that
// deny into a passthrough (the folded result, the last rewrite, equalled the input re-checked).
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';

async function verdict(mode: 'serial' | 'parallel'): Promise<string> {
  const hw = await createExecutor({
    config: { events: { BeforeTool: { mode } }, hooks: {} },
    onWarning: () => {},
  });
  try {
    // One guard rewrites anything but "a" to "a"; the other answers "b" always, even on "b".
    hw.register({
      event: 'BeforeTool',
      name: 'wants-a',
      handler: (i) =>
        (i.toolInput as { command?: string }).command === 'a'
          ? undefined
          : { mutatedToolInput: { command: 'a' } },
    });
    hw.register({
      event: 'BeforeTool',
      name: 'says-b',
      handler: () => ({ mutatedToolInput: { command: 'b' } }),
    });
    const r = await hw.dispatch('BeforeTool', { toolName: 'Bash', toolInput: { command: 'ls' } });
    return r.decision;
  } finally {
    await hw.close();
  }
}

describe('re-checking rewrites', () => {
  it('two guards undoing each other deny, whether the event is serial or parallel', async () => {
    expect(await verdict('serial')).toBe('deny');
    expect(await verdict('parallel')).toBe('deny');
  });

  it('a guard that rewrites to what it was shown is settled', async () => {
    const hw = await createExecutor({
      config: { events: { BeforeTool: { mode: 'parallel' } }, hooks: {} },
      onWarning: () => {},
    });
    try {
      hw.register({
        event: 'BeforeTool',
        name: 'pin',
        handler: () => ({ mutatedToolInput: { command: 'ls --safe' } }),
      });
      hw.register({ event: 'BeforeTool', name: 'look', handler: () => undefined });
      const r = await hw.dispatch('BeforeTool', { toolName: 'Bash', toolInput: { command: 'ls' } });
      expect(r.decision).toBe('passthrough');
      expect(r.mutatedToolInput).toEqual({ command: 'ls --safe' });
    } finally {
      await hw.close();
    }
  });
});
