// prestartJsWorkers: QuickJS worker threads start with the executor (default), or with the first JS
// hook (what a one-shot caller such as the CLI wants).
import { describe, expect, it } from 'vitest';
import { internalsOf } from '../../src/executor/internals.js';
import type { Executor } from '../../src/index.js';
import { createExecutor } from '../../src/index.js';
import { hooksOn, withExecutor } from '../helpers/fixture.js';

const jsThreads = (hw: Executor) => internalsOf(hw).pool.js.threads;

const config = hooksOn('BeforeTool', [{ type: 'js', code: 'export default () => ({ decision: "allow" })' }], {
  matcher: 'Bash',
});
const limits = { jsThreads: 1 };

describe('prestartJsWorkers', () => {
  it('starts the QuickJS workers with the executor by default', async () => {
    await withExecutor({ config, limits }, async (hw) => {
      expect(jsThreads(hw)).toBe(1);
    });
  });

  it('false: no worker until a JS hook runs; a dispatch that runs none starts none', async () => {
    await withExecutor({ config, limits, prestartJsWorkers: false }, async (hw) => {
      expect(jsThreads(hw)).toBe(0);
      expect((await hw.dispatch('BeforeTool', { toolName: 'Read' })).decision).toBe('passthrough');
      expect(jsThreads(hw)).toBe(0);
      expect((await hw.dispatch('BeforeTool', { toolName: 'Bash' })).decision).toBe('allow');
      expect(jsThreads(hw)).toBe(1);
    });
  });

  it('must be a boolean', async () => {
    await expect(createExecutor({ config, prestartJsWorkers: 'no' as never })).rejects.toMatchObject({
      code: 'invalid_options',
      message: 'prestartJsWorkers: expected true or false, got "no"',
    });
  });
});
