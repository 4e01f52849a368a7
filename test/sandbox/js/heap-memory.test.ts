// JS hooks and the worker's WebAssembly memory, which never shrinks by itself: memoryBytes holds on
// every call whatever ran before on the worker, and a call that grew the memory a lot gives it back
// once its answer is sent (the worker's QuickJS module is replaced). Real isolates, real lane.
import { describe, expect, it } from 'vitest';
import { input, withExecutor } from '../../helpers/fixture.js';
import { jsConfig, workerStats } from '../../helpers/js.js';

const ev = input({ toolName: 'Bash', toolInput: { command: 'ls' } });
const MiB = 1024 * 1024;
/** Keeps `mb` MiB of strings alive until it answers. */
const holding = (mb: number, field = 'updatedToolOutput') =>
  `export default () => { const a = []; for (let i = 0; i < ${mb * 10}; i++) a.push('x'.repeat(104857) + i); return { ${field}: String(a.length) } }`;
const ARRAY_BOMB =
  'export default () => { const a = []; for (;;) a.push(Array.from({ length: 1e4 }, () => 1)) }';

/** A project file's larger heap and longer deadline are the policy's to grant (grants.ts). */
const GRANT = [{ grants: { project: { memoryBytes: 64 * MiB, timeoutMs: 60_000 } } }];

describe('JS hooks and the worker memory', () => {
  it('stops a memory bomb at its memoryBytes after a large legal call grew the memory', async () => {
    const config = jsConfig(
      'inline',
      {
        AfterTool: [{ name: 'large', code: holding(12) }],
        BeforeTool: [{ name: 'bomb', code: ARRAY_BOMB, memoryBytes: 4 * MiB, timeoutMs: 20_000 }],
      },
      { limits: { jsThreads: 1 } },
    );
    await withExecutor({ config, policy: GRANT }, async (hw) => {
      const large = await hw.dispatch('AfterTool', ev);
      expect(large.updatedToolOutput).toBe('120');
      const grown = await workerStats(hw);
      expect(grown.heapBytes).toBeGreaterThan(16 * MiB);
      for (let i = 0; i < 3; i++) {
        const bomb = await hw.dispatch('BeforeTool', ev);
        expect([bomb.hooks[0]!.outcome, bomb.hooks[0]!.error!.code]).toEqual(['limit', 'memory_limit']);
        // Stopped by the heap-growth guard within the memory the large call had left: not by the
        // deadline, not by the backstop, and without growing the memory any further.
        const after = await workerStats(hw);
        expect([after.threadId, after.modulesBuilt, after.heapBytes]).toEqual([
          grown.threadId,
          grown.modulesBuilt,
          grown.heapBytes,
        ]);
      }
      expect((await hw.dispatch('AfterTool', ev)).updatedToolOutput).toBe('120');
    });
  });

  it('holds memoryBytes on every call of the same hook', async () => {
    const config = jsConfig(
      'inline',
      {
        BeforeTool: [{ name: 'over', code: holding(12, 'additionalContext'), memoryBytes: 8 * MiB }],
        AfterTool: [{ name: 'under', code: holding(4), memoryBytes: 8 * MiB }],
      },
      { limits: { jsThreads: 1 } },
    );
    await withExecutor({ config, policy: GRANT }, async (hw) => {
      for (let i = 0; i < 3; i++) {
        const over = await hw.dispatch('BeforeTool', ev);
        expect(over.hooks[0]!.error?.code).toBe('memory_limit');
        expect((await hw.dispatch('AfterTool', ev)).updatedToolOutput).toBe('40');
      }
    });
  });

  it('gives the memory of a large call back once the answer is sent', async () => {
    const config = jsConfig(
      'inline',
      {
        BeforeTool: [{ name: 'large', code: holding(40, 'additionalContext'), memoryBytes: 64 * MiB }],
        AfterTool: [{ name: 'small', code: "export default () => ({ updatedToolOutput: 'fine' })" }],
      },
      { limits: { jsThreads: 1 } },
    );
    await withExecutor({ config, policy: GRANT }, async (hw) => {
      const before = await workerStats(hw);
      expect((await hw.dispatch('BeforeTool', ev)).additionalContext).toBe('400');
      const after = await workerStats(hw);
      // The grown module was replaced after the answer: the memory is back at its initial size.
      expect([after.threadId, after.modulesBuilt, after.heapBytes, after.memoryIsImage]).toEqual([
        before.threadId,
        before.modulesBuilt + 1,
        before.heapBytes,
        true,
      ]);
      expect((await hw.dispatch('AfterTool', ev)).updatedToolOutput).toBe('fine');
      expect((await hw.dispatch('BeforeTool', ev)).additionalContext).toBe('400');
    });
  });

  it('does not load a hook with a slow top level again while idle after the memory is given back', async () => {
    // Its top level takes hundreds of ms (far above the 20 ms bound on any machine); its call grows
    // the memory past the recycle bound.
    const slowTop = `let s = 0; for (let i = 0; i < 4e6; i++) s += i % 7;\n${holding(40, 'additionalContext')}`;
    const config = jsConfig(
      'inline',
      { BeforeTool: [{ name: 'slow', code: slowTop, memoryBytes: 64 * MiB, timeoutMs: 60_000 }] },
      { limits: { jsThreads: 1 } },
    );
    await withExecutor({ config, policy: GRANT }, async (hw) => {
      const before = await workerStats(hw);
      expect((await hw.dispatch('BeforeTool', ev)).additionalContext).toBe('400');
      const after = await workerStats(hw);
      // Replaced, and left at the environment image: the hook was not compiled again ahead of its call.
      expect([after.modulesBuilt, after.images, after.imagesBuilt, after.memoryIsImage]).toEqual([
        before.modulesBuilt + 1,
        0,
        before.imagesBuilt + 1,
        true,
      ]);
      expect((await hw.dispatch('BeforeTool', ev)).additionalContext).toBe('400');
      expect((await workerStats(hw)).imagesBuilt).toBe(before.imagesBuilt + 2);
    });
  });
});
