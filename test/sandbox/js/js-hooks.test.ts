// JS hooks in QuickJS isolates: limits and their error codes, escape probes, isolation and
// determinism, parameterised over inline and file hooks. Real isolates on the real Piscina lane.
import { describe, expect, it } from 'vitest';
import { input, withExecutor } from '../../helpers/fixture.js';
import { type JsMode, jsConfig, workerStats } from '../../helpers/js.js';

const MODES: JsMode[] = ['inline', 'file'];
const ev = input({ toolName: 'Bash', toolInput: { command: 'ls' } });

async function runOne(
  mode: JsMode,
  code: string,
  extra: Record<string, unknown> = {},
  limits: Record<string, unknown> = {},
) {
  const config = jsConfig(
    mode,
    { BeforeTool: [{ name: 'h', code, ...extra }] },
    { limits: { jsThreads: 1, ...limits } },
  );
  return withExecutor({ config }, async (hw) => (await hw.dispatch('BeforeTool', ev)).hooks[0]!);
}

describe.each(MODES)('JS hooks (%s)', (mode) => {
  it('answer through their default export, sync or async', async () => {
    const config = jsConfig(mode, {
      BeforeTool: [
        {
          name: 'sync',
          code: `export default function (input, ctx) { return { additionalContext: ctx.hookId + ':' + ctx.event + ':' + input.toolName } }`,
        },
        {
          name: 'async',
          code: `export default async (input) => { await Promise.resolve(); return { decision: 'ask', reason: input.toolInput.command } }`,
        },
      ],
    });
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', ev);
      expect(r).toMatchObject({ decision: 'ask', reason: 'ls', additionalContext: 'sync:BeforeTool:Bash' });
      expect(r.hooks.map((h) => [h.type, h.outcome])).toEqual([
        ['js', 'proceed'],
        ['js', 'ask'],
      ]);
    });
  });

  const LIMITS: [string, string, Record<string, unknown>, string, string][] = [
    ['an infinite loop', 'export default () => { for (;;) {} }', { timeoutMs: 150 }, 'timeout', 'timeout'],
    [
      'an infinite loop that catches',
      'export default () => { for (;;) { try { for (;;) {} } catch (e) {} } }',
      { timeoutMs: 150 },
      'timeout',
      'timeout',
    ],
    ['a never-settling promise', 'export default () => new Promise(() => {})', {}, 'error', 'runtime_error'],
    [
      'an array memory bomb',
      'export default () => { const a = []; for (;;) a.push(new Array(1e5).fill(1)) }',
      { memoryBytes: 8 << 20 },
      'limit',
      'memory_limit',
    ],
    [
      'a string memory bomb',
      "export default () => { let s = 'x'; for (;;) s += s }",
      { memoryBytes: 8 << 20 },
      'limit',
      'memory_limit',
    ],
    [
      'runaway recursion',
      'export default () => { const f = () => f() + 1; return f() }',
      {},
      'limit',
      'stack_overflow',
    ],
    [
      'an oversized answer',
      "export default () => ({ additionalContext: 'x'.repeat(70000) })",
      {},
      'limit',
      'output_limit',
    ],
    ['a throw', "export default () => { throw new TypeError('bad input') }", {}, 'error', 'runtime_error'],
    [
      'a rejected promise',
      "export default async () => { throw new Error('async bad') }",
      {},
      'error',
      'runtime_error',
    ],
    [
      'a cyclic answer',
      'export default () => { const o = {}; o.self = o; return o }',
      {},
      'error',
      'invalid_output',
    ],
    ['a BigInt in the answer', 'export default () => ({ reason: 1n })', {}, 'error', 'invalid_output'],
    ['a function as the answer', 'export default () => () => 1', {}, 'error', 'invalid_output'],
    ['a wrong field type', "export default () => ({ decision: 'perhaps' })", {}, 'error', 'invalid_output'],
    ['no default export', 'export const x = 1', {}, 'error', 'runtime_error'],
    ['a syntax error', 'export default function () {\n  return {;\n}', {}, 'error', 'syntax_error'],
  ];

  it.each(LIMITS)('%s fails with its own error code', async (_what, code, extra, outcome, errorCode) => {
    const rec = await runOne(mode, code, extra);
    expect([rec.outcome, rec.error?.code]).toEqual([outcome, errorCode]);
  });

  it('reports syntax errors with the file and line', async () => {
    const rec = await runOne(mode, 'export default function () {\n  return {;\n}');
    expect(rec.error!.message).toMatch(
      mode === 'file' ? /hooks\/h\.js:2/ : /hooks\.json#hooks\.BeforeTool\[0\]\.hooks\[0\]:2/,
    );
  });

  it('checks the input size on the host before it reaches the isolate', async () => {
    const config = jsConfig(
      mode,
      { BeforeTool: [{ name: 'h', code: 'export default () => ({})' }] },
      { limits: { maxInputBytes: 1000 } },
    );
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', { ...ev, toolInput: { blob: 'x'.repeat(2000) } });
      expect(r.hooks[0]).toMatchObject({ outcome: 'limit', error: { code: 'input_too_large' } });
    });
  });

  it('captures console.* in the record, capped, and never on stdout', async () => {
    const rec = await runOne(
      mode,
      "export default () => { console.log('hello', { a: 1 }); console.error('oops'); for (let i = 0; i < 500; i++) console.log(i); return {} }",
    );
    expect(rec.logs!.slice(0, 2)).toEqual(['hello {"a":1}', '[error] oops']);
    expect(rec.logs!.length).toBe(101);
    expect(rec.logs![100]).toMatch(/more console lines dropped/);
  });

  it('cannot reach the host: require, process, fetch, std, os, timers, import(), Function', async () => {
    const code = `export default async () => {
      const g = Function('return this')();
      let dynamicImport;
      try { await import('os'); dynamicImport = 'loaded'; } catch (e) { dynamicImport = 'refused'; }
      return { additionalContext: JSON.stringify({
        require: typeof require, process: typeof process, fetch: typeof fetch, std: typeof std, os: typeof os,
        setTimeout: typeof setTimeout, WebAssembly: typeof WebAssembly, dynamicImport,
        viaFunction: typeof g.process + typeof g.require,
        keys: Object.keys(g).filter((k) => !['console'].includes(k)),
      }) };
    }`;
    const rec = await withExecutor({ config: jsConfig(mode, { BeforeTool: [{ name: 'h', code }] }) }, (hw) =>
      hw.dispatch('BeforeTool', ev),
    );
    expect(JSON.parse(rec.additionalContext!)).toEqual({
      require: 'undefined',
      process: 'undefined',
      fetch: 'undefined',
      std: 'undefined',
      os: 'undefined',
      setTimeout: 'undefined',
      WebAssembly: 'undefined',
      dynamicImport: 'refused',
      viaFunction: 'undefinedundefined',
      keys: [],
    });
  });

  it('cannot import modules statically', async () => {
    const rec = await runOne(
      mode,
      "import fs from 'fs';\nexport default () => ({ additionalContext: typeof fs })",
    );
    expect(rec.outcome).toBe('error');
    expect(rec.error!.message).toMatch(/could not load module|fs/);
  });

  it('keeps no state between invocations', async () => {
    const code =
      'globalThis.n = (globalThis.n ?? 0) + 1; Array.prototype.x = 1; export default () => ({ additionalContext: String(globalThis.n) + typeof [].x })';
    const config = jsConfig(mode, { BeforeTool: [{ name: 'h', code }] }, { limits: { jsThreads: 1 } });
    await withExecutor({ config }, async (hw) => {
      for (let i = 0; i < 3; i++)
        expect((await hw.dispatch('BeforeTool', ev)).additionalContext).toBe('1number');
    });
  });

  it('gets a deep-frozen input', async () => {
    const rec = await withExecutor(
      {
        config: jsConfig(mode, {
          BeforeTool: [
            {
              name: 'h',
              code: "export default (input) => { 'use strict'; input.toolInput.command = 'rm'; return {} }",
            },
          ],
        }),
      },
      (hw) => hw.dispatch('BeforeTool', ev),
    );
    expect(rec.hooks[0]).toMatchObject({
      outcome: 'error',
      error: { code: 'runtime_error', message: expect.stringMatching(/TypeError/) },
    });
  });

  it('is a pure function of its input: Date is the event time, Math.random is seeded', async () => {
    const code =
      'export default () => ({ additionalContext: [Date.now(), new Date().toISOString(), Math.random(), Math.random()].join(" ") })';
    const config = jsConfig(mode, { BeforeTool: [{ name: 'h', code }] }, { limits: { jsThreads: 2 } });
    const outs = await withExecutor({ config }, async (hw) => {
      const a = await Promise.all([1, 2, 3, 4].map(() => hw.dispatch('BeforeTool', ev)));
      const other = await hw.dispatch('BeforeTool', { ...ev, toolInput: { command: 'pwd' } });
      return [...a.map((r) => r.additionalContext), other.additionalContext];
    });
    const again = await withExecutor({ config }, (hw) => hw.dispatch('BeforeTool', ev));
    const [ts, iso, r1, r2] = outs[0]!.split(' ');
    expect(Number(ts)).toBe(Date.parse('2026-11-29T12:00:00.000Z'));
    expect(iso).toBe('2026-11-29T12:00:00.000Z');
    expect(r1).not.toBe(r2);
    expect(new Set(outs.slice(0, 4)).size).toBe(1);
    expect(again.additionalContext).toBe(outs[0]);
    expect(outs[4]!.split(' ')[2]).not.toBe(r1); // another input, another seed
  });

  it('never lets __proto__ keys reach the host', async () => {
    const rec = await withExecutor(
      {
        config: jsConfig(mode, {
          BeforeTool: [
            {
              name: 'h',
              code: `export default () => JSON.parse('{"mutatedToolInput":{"__proto__":{"polluted":true},"command":"ls"}}')`,
            },
          ],
        }),
      },
      (hw) => hw.dispatch('BeforeTool', ev),
    );
    expect(Object.keys(rec.mutatedToolInput!)).toEqual(['command']);
    expect(Object.getPrototypeOf(rec.mutatedToolInput)).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('the QuickJS lane', () => {
  it('survives a memory bomb and runs normal hooks on the same worker, heap bounded by the cap', async () => {
    const config = jsConfig(
      'inline',
      {
        BeforeTool: [
          {
            name: 'bomb',
            code: "export default () => { const a = []; for (;;) a.push('x'.repeat(1e5) + a.length) }",
          },
        ],
        AfterTool: [{ name: 'ok', code: "export default () => ({ updatedToolOutput: 'fine' })" }],
      },
      { limits: { jsThreads: 1 } },
    );
    // The heap ceiling shapes the executor for every scope: the caller's options set it.
    await withExecutor({ config, limits: { jsHeapCeilingBytes: 48 << 20 } }, async (hw) => {
      const before = await workerStats(hw);
      const bomb = await hw.dispatch('BeforeTool', ev);
      expect(bomb.hooks[0]).toMatchObject({ outcome: 'limit', error: { code: 'memory_limit' } });
      expect(bomb.hooks[0]!.error!.message).toMatch(/ceiling.*QuickJS module was replaced/);
      const after = await workerStats(hw);
      expect(after.threadId).toBe(before.threadId);
      expect(after.modulesBuilt).toBe(before.modulesBuilt + 1);
      expect(after.heapBytes).toBeLessThanOrEqual(after.ceilingBytes);
      for (let i = 0; i < 3; i++) expect((await hw.dispatch('AfterTool', ev)).updatedToolOutput).toBe('fine');
      expect(after.ceilingBytes).toBe(48 << 20);
    });
  });

  it('terminates and replaces a worker whose hook does not yield to its interrupt (the backstop)', async () => {
    // QuickJS's parser never checks the interrupt: a large module keeps it busy past the deadline.
    const big = `export default () => ({});\n${Array.from({ length: 25_000 }, (_, i) => `const v${i} = [${i}];`).join('\n')}`;
    const config = jsConfig(
      'inline',
      {
        BeforeTool: [{ name: 'slow-parse', code: big, timeoutMs: 20 }],
        AfterTool: [{ name: 'ok', code: "export default () => ({ updatedToolOutput: 'fine' })" }],
      },
      { limits: { jsThreads: 1, jsBackstopGraceMs: 30 } },
    );
    await withExecutor({ config }, async (hw) => {
      const before = await workerStats(hw);
      const r = await hw.dispatch('BeforeTool', ev);
      expect(r.hooks[0]).toMatchObject({
        outcome: 'timeout',
        error: {
          code: 'timeout',
          message: expect.stringMatching(/worker thread was terminated and replaced/),
        },
      });
      expect((await hw.dispatch('AfterTool', ev)).updatedToolOutput).toBe('fine');
      const after = await workerStats(hw);
      expect(after.threadId).not.toBe(before.threadId);
    });
  });

  it('leaves no live runtime or context behind', async () => {
    const config = jsConfig(
      'inline',
      {
        BeforeTool: [
          { name: 'a', code: 'export default () => ({})' },
          { name: 'b', code: "export default () => { throw new Error('x') }" },
          { name: 'c', code: 'export default () => { for (;;) {} }', timeoutMs: 50 },
          { name: 'd', code: 'export default function () {' },
        ],
      },
      { limits: { jsThreads: 1 } },
    );
    await withExecutor({ config }, async (hw) => {
      for (let i = 0; i < 5; i++) await hw.dispatch('BeforeTool', ev);
      const s = await workerStats(hw);
      expect([s.liveRuntimes, s.liveContexts]).toEqual([0, 0]);
    });
  });
});
