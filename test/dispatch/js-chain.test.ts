// Adjacent JS hooks of a serial chain run as one worker task, folded in the worker with the host's
// pure fold; the result must equal hook-by-hook execution.
import { describe, expect, it } from 'vitest';
import type { DispatchResult } from '../../src/index.js';
import { input, withExecutor } from '../helpers/fixture.js';
import { workerStats } from '../helpers/js.js';

const JS = [
  {
    type: 'js',
    name: 'rewrite',
    code: "export default (i) => ({ mutatedToolInput: { command: i.toolInput.command + ' --dry-run' }, additionalContext: 'r:' + Math.random().toFixed(6) })",
  },
  {
    type: 'js',
    name: 'observe',
    code: "export default (i) => ({ additionalContext: 'saw ' + i.toolInput.command, decision: 'ask', reason: 'check' })",
  },
  { type: 'js', name: 'fails', code: "export default () => { throw new Error('boom') }" },
  {
    type: 'js',
    name: 'deny',
    code: "export default (i) => i.toolInput.command.includes('rm') ? { decision: 'deny', reason: 'rm' } : undefined",
  },
  { type: 'js', name: 'after', code: "export default () => ({ additionalContext: 'after' })" },
];

/** The same hooks with a distinct no-op command hook between each two: every JS hook is its own task. */
const spaced = JS.flatMap((h, i) =>
  i === 0 ? [h] : [{ type: 'command', name: `noop${i}`, argv: ['/bin/true', String(i)] }, h],
);

/** The JS records and the folded fields, without timings. */
const comparable = (r: DispatchResult) => {
  const { hooks, ...rest } = r;
  // Inline hooks are named after their JSON path, which differs between the two configs.
  const js = hooks.filter((h) => h.type === 'js').map(({ latencyMs: _l, queuedMs: _q, ...h }) => h);
  return JSON.parse(JSON.stringify({ ...rest, hooks: js }).replace(/hooks\[\d+\]:/g, 'hooks[N]:'));
};

describe('serial chains of JS hooks', () => {
  it.each([['ls'], ['rm -rf build']])('fold in one task exactly as hook by hook (%s)', async (command) => {
    const ev = input({ toolName: 'Bash', toolInput: { command } });
    const run = (hooks: unknown[]) =>
      withExecutor(
        { config: { hooks: { BeforeTool: [{ hooks }] }, limits: { jsThreads: 1 } } },
        async (hw) => {
          const before = (await workerStats(hw)).tasksRun;
          const result = await hw.dispatch('BeforeTool', ev);
          return { result, tasks: (await workerStats(hw)).tasksRun - before };
        },
      );
    const { result: chained, tasks: chainTasks } = await run(JS);
    const { result: oneByOne, tasks: spacedTasks } = await run(spaced);
    expect(chainTasks).toBe(1);
    expect(spacedTasks).toBe(command === 'ls' ? 5 : 4);
    expect(comparable(chained)).toEqual(comparable(oneByOne));
    expect(chained.hooks.map((h) => h.outcome)).toEqual(
      command === 'ls'
        ? ['proceed', 'ask', 'error', 'proceed', 'proceed']
        : ['proceed', 'ask', 'error', 'deny', 'not-run'],
    );
    expect(chained.additionalContext).toMatch(new RegExp(`^r:0\\.\\d{6}\\nsaw ${command} --dry-run`));
  });

  it('mix with command hooks in registration order', async () => {
    const hooks = [JS[0], { type: 'command', argv: ['/bin/echo', '{"additionalContext":"cmd"}'] }, JS[4]];
    const r = await withExecutor({ config: { hooks: { BeforeTool: [{ hooks }] } } }, (hw) =>
      hw.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: { command: 'ls' } })),
    );
    expect(r.additionalContext!.split('\n').slice(1)).toEqual(['cmd', 'after']);
    expect(r.hooks.map((h) => h.type)).toEqual(['js', 'command', 'js']);
  });

  it('fan out on parallel events and reassemble in registration order', async () => {
    const hooks = [
      {
        type: 'js',
        name: 'slow',
        code: "export default () => { const end = Date.now(); let x = 0; for (let i = 0; i < 3e6; i++) x += i; return { additionalContext: 'slow ' + (x > 0) } }",
      },
      { type: 'js', name: 'fast', code: "export default () => ({ additionalContext: 'fast' })" },
    ];
    const r = await withExecutor(
      { config: { hooks: { SessionStart: [{ hooks }] }, limits: { jsThreads: 2 } } },
      (hw) => hw.dispatch('SessionStart', input()),
    );
    expect(r.additionalContext).toBe('slow true\nfast');
  });
});
