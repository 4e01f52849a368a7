// The guarantee behind JS hooks' speed: every call starts from its hook's image, so nothing a call
// does survives it — whatever it mutates, however often it runs, on a worker that keeps the hook
// loaded. Real isolates on the real Piscina lane.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { input, withExecutor } from '../../helpers/fixture.js';
import { jsConfig, workerStats } from '../../helpers/js.js';

const MUTATE_EVERYTHING = readFileSync(
  new URL('../../fixtures/js/mutate-everything.js', import.meta.url),
  'utf8',
);
const ev = input({ toolName: 'Bash', toolInput: { command: 'ls' } });

describe('fresh state per call', () => {
  it('10,000 calls of a hook that mutates everything it can reach each start from the same state', async () => {
    const config = jsConfig(
      'file',
      { BeforeTool: [{ name: 'mutator', code: MUTATE_EVERYTHING }] },
      { limits: { jsThreads: 1 } },
    );
    await withExecutor({ config }, async (hw) => {
      const fingerprints = new Map<string, number>();
      const calls = 10_000;
      // 50 at a time: tasks also travel to the worker in batches, one image restore between each.
      for (let done = 0; done < calls; done += 50) {
        const results = await Promise.all(Array.from({ length: 50 }, () => hw.dispatch('BeforeTool', ev)));
        for (const r of results) {
          expect(r.hooks[0]!.outcome, JSON.stringify(r.hooks[0]!.error)).toBe('proceed');
          const f = r.additionalContext!;
          fingerprints.set(f, (fingerprints.get(f) ?? 0) + 1);
        }
      }
      expect([...fingerprints.values()]).toEqual([calls]);
      const [seen] = fingerprints.keys();
      const [
        loads,
        calledBefore,
        kept,
        globals,
        x,
        polluted,
        trim,
        ,
        now,
        tz,
        stringify,
        frozen,
        command,
        log,
        map,
        objectKeys,
        ,
        internalError,
        finalized,
      ] = JSON.parse(seen!) as unknown[];
      // The module's top level ran once for this worker; no call left anything behind.
      expect([loads, calledBefore, kept, globals, x, polluted, trim]).toEqual([
        1,
        'undefined',
        0,
        'console,loads',
        'undefined',
        'undefined',
        'trim',
      ]);
      expect([now, tz, stringify, frozen, command, log, map, objectKeys, internalError, finalized]).toEqual([
        Date.parse('2026-11-29T12:00:00.000Z'),
        0,
        true,
        true,
        'ls',
        'function',
        '2,4,6',
        12,
        'undefined',
        'undefined',
      ]);
      const s = await workerStats(hw);
      // One compile for all of them; the worker's memory holds exactly the hook's image afterwards.
      expect([s.tasksRun >= calls / 50, s.imagesBuilt, s.modulesBuilt, s.memoryIsImage]).toEqual([
        true,
        1,
        1,
        true,
      ]);
    });
  }, 120_000);
});

describe('a hook module loaded once per worker', () => {
  it('reports the same memory use on every call when asked for it (hook.completed listeners)', async () => {
    const config = jsConfig(
      'file',
      { BeforeTool: [{ name: 'mutator', code: MUTATE_EVERYTHING }] },
      { limits: { jsThreads: 1 } },
    );
    await withExecutor({ config }, async (hw) => {
      hw.on('hook.completed', () => {});
      const used = new Set<number | undefined>();
      for (let i = 0; i < 200; i++) used.add((await hw.dispatch('BeforeTool', ev)).hooks[0]!.memoryBytes);
      expect(used.size).toBe(1);
      expect([...used][0]).toBeGreaterThan(0);
      const s = await workerStats(hw);
      expect([s.modulesBuilt, s.memoryIsImage, s.liveContexts]).toEqual([1, true, 0]);
    });
  });

  it('runs its top level once, and each call still shows what the top level printed', async () => {
    const code = [
      "console.log('loading', Date.now());",
      'const drawn = Math.random();',
      'export default () => ({ additionalContext: String(drawn) })',
    ].join('\n');
    const config = jsConfig('inline', { BeforeTool: [{ name: 'h', code }] }, { limits: { jsThreads: 1 } });
    await withExecutor({ config }, async (hw) => {
      const runs = [];
      for (let i = 0; i < 5; i++) runs.push(await hw.dispatch('BeforeTool', ev));
      // The top level sees no event: Date.now() is 0 there, and Math.random is seeded from the source.
      for (const r of runs) expect(r.hooks[0]!.logs).toEqual(['loading 0']);
      expect(new Set(runs.map((r) => r.additionalContext)).size).toBe(1);
      expect((await workerStats(hw)).imagesBuilt).toBe(1);
    });
  });

  it('reads the input and the answer with builtins captured before its top level replaced them', async () => {
    const code = `
      JSON.parse = () => ({ toolInput: { command: 'forged' } });
      JSON.stringify = () => '{"decision":"deny"}';
      Object.freeze = (o) => o;
      Reflect.ownKeys = () => [];
      Error.isError = () => true;
      Array.prototype.push = () => { throw new Error('push') };
      Object.defineProperty(Object.prototype, 'toolInput', { set() { throw new Error('set') } });
      export default (input) => ({
        additionalContext: [Object.isFrozen(input), Object.isFrozen(input.toolInput), input.toolInput.command].join(),
      });`;
    const config = jsConfig('inline', { BeforeTool: [{ name: 'h', code }] });
    const r = await withExecutor({ config }, (hw) => hw.dispatch('BeforeTool', ev));
    expect([r.decision, r.additionalContext]).toEqual(['passthrough', 'true,true,ls']);
  });

  it.each([
    [
      'an object named InternalError saying "stack overflow"',
      "throw { name: 'InternalError', message: 'stack overflow' }",
    ],
    [
      'an object named InternalError saying "out of memory"',
      "throw { name: 'InternalError', message: 'out of memory' }",
    ],
    ['a RangeError about the call stack', "throw new RangeError('Maximum call stack size exceeded')"],
    ['a SyntaxError thrown by the hook', "throw new SyntaxError('unexpected token')"],
    [
      'an error renamed InternalError',
      "const e = new Error('stack overflow'); e.name = 'InternalError'; throw e",
    ],
  ])('cannot pass %s off as a limit', async (_what, body) => {
    const config = jsConfig('inline', {
      BeforeTool: [{ name: 'h', code: `export default () => { ${body} }` }],
    });
    const r = await withExecutor({ config }, (hw) => hw.dispatch('BeforeTool', ev));
    expect([r.hooks[0]!.outcome, r.hooks[0]!.error!.code]).toEqual(['error', 'runtime_error']);
  });

  it('has no InternalError global to build engine errors with', async () => {
    const code = 'export default () => ({ additionalContext: typeof InternalError })';
    const config = jsConfig('inline', { BeforeTool: [{ name: 'h', code }] });
    const r = await withExecutor({ config }, (hw) => hw.dispatch('BeforeTool', ev));
    expect(r.additionalContext).toBe('undefined');
  });
});
