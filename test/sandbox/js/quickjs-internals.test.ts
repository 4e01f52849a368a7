// The private fields of quickjs-emscripten that the sandbox relies on are checked when a sandbox is
// built: the pinned version, every field present. An upgrade that renames one fails loudly, naming it.
import { readFileSync } from 'node:fs';
import type { QuickJSContext, QuickJSRuntime } from 'quickjs-emscripten-core';
import { describe, expect, it } from 'vitest';
import {
  checkQuickJsInternals,
  installedQuickJsVersion,
  PINNED_QUICKJS_VERSION,
  quickJsInternalsProblems,
} from '../../../sandbox/js/quickjs-internals.js';
import { createQuickJsModule } from '../../../sandbox/js/quickjs-module.js';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};

async function withRuntime(
  fn: (
    m: Awaited<ReturnType<typeof createQuickJsModule>>['module'],
    rt: QuickJSRuntime,
    ctx: QuickJSContext,
  ) => void,
) {
  const { module } = await createQuickJsModule(32 << 20);
  const rt = module.newRuntime();
  const ctx = rt.newContext();
  try {
    fn(module, rt, ctx);
  } finally {
    ctx.dispose();
    rt.dispose();
  }
}

describe("quickjs-emscripten's internals", () => {
  it('are those of the version package.json pins, and all present', async () => {
    expect(pkg.dependencies['quickjs-emscripten-core']).toBe(PINNED_QUICKJS_VERSION);
    expect(installedQuickJsVersion()).toBe(PINNED_QUICKJS_VERSION);
    await withRuntime((m, rt, ctx) => {
      expect(quickJsInternalsProblems(m, rt, ctx)).toEqual([]);
      expect(() => checkQuickJsInternals(m, rt, ctx)).not.toThrow();
    });
  });

  it('another version, or a field renamed, fails the check naming it', async () => {
    await withRuntime((m, rt, ctx) => {
      expect(quickJsInternalsProblems(m, rt, ctx, '0.33.0')).toEqual([
        `quickjs-emscripten-core is 0.33.0, the fields were read from ${PINNED_QUICKJS_VERSION}`,
      ]);
      // The runtime and context as an upgrade might leave them: a field gone, another renamed.
      const upgradedRt = Object.create(rt, { hostRefs: { value: undefined } }) as QuickJSRuntime;
      const upgradedCtx = Object.create(ctx, { memory: { value: {} } }) as QuickJSContext;
      expect(quickJsInternalsProblems(m, upgradedRt, upgradedCtx)).toEqual([
        'runtime.hostRefs.put is not a function',
        'runtime.hostRefs.delete is not a function',
        'context.memory.heapValueHandle is not a function',
      ]);
      expect(() => checkQuickJsInternals(m, upgradedRt, ctx)).toThrow(
        /internals of quickjs-emscripten-core that changed: runtime\.hostRefs\.put is not a function; .*Install quickjs-emscripten-core@0\.32\.0/,
      );
    });
  });
});
