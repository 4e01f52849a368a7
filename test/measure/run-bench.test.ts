// runBench through the public API: tiny real runs, behaviour only (no timing assertions).
import { describe, expect, it } from 'vitest';
import { HookwardenError } from '../../src/index.js';
import { BENCH_DEFAULTS, runBench } from '../../src/measure/index.js';
import { input } from '../helpers/fixture.js';
import { hookProcesses } from '../helpers/processes.js';

const mixed = {
  hooks: {
    BeforeTool: [
      {
        hooks: [
          { type: 'js', name: 'js-allow', code: "export default () => ({ decision: 'allow' })" },
          { type: 'command', name: 'fails', command: 'exit 1' },
        ],
      },
    ],
  },
};

const tiny = { iterations: 6, warmup: 1, baselineSamples: 2, onWarning: () => {} };

describe('runBench', () => {
  it('reports overall, per-hook and baseline figures, and counts hook failures by code without stopping', async () => {
    const r = await runBench({
      ...tiny,
      config: mixed,
      event: 'PreToolUse',
      input: input({ toolName: 'Bash' }),
    });
    expect(r.event).toBe('PreToolUse');
    expect(r.overall.count).toBe(6);
    expect(Object.keys(r.perHook)).toEqual(['js-allow', 'fails']);
    expect(r.perHook['js-allow']).toMatchObject({ type: 'js', count: 6, notRun: 0 });
    expect(r.perHook.fails).toMatchObject({ type: 'command', count: 6 });
    expect(r.errors).toEqual({ nonzero_exit: 6 });
    expect(r.decisions).toEqual({ allow: 6 });
    expect(Object.keys(r.ratios.perHook.fails!)).toEqual(['vsSpawnTrue']);
    expect(Object.keys(r.ratios.perHook['js-allow']!)).toEqual(['vsQuickJsEval', 'vsEchoPlusEval']);
    for (const b of Object.values(r.baselines)) expect(b.count).toBe(2);
    expect(r.histogram.reduce((n, b) => n + b.count, 0)).toBe(6);
    expect(r.perTenant).toBeUndefined();
    expect(r.config).toEqual(['<inline>']);
    expect(r.perHook.fails!.errors).toEqual({ nonzero_exit: 6 });
    expect(r.perHook['js-allow']!.errors).toEqual({});
  });

  it('describes itself: schema, version, the hooks with isolation and digests, the input, one summary per block', async () => {
    const r = await runBench({
      ...tiny,
      config: mixed,
      event: 'PreToolUse',
      input: input({ toolName: 'Bash' }),
    });
    expect(r.schema).toBe(2);
    expect(r.hookwarden.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.hookwarden.commit === null || /^[0-9a-f]{40}$/.test(r.hookwarden.commit)).toBe(true);
    expect(r.hooks.map((h) => [h.id, h.type, h.isolation])).toEqual([
      ['js-allow', 'js', 'quickjs'],
      ['fails', 'command', 'process'],
    ]);
    for (const h of r.hooks) expect(h.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(r.input.value).toMatchObject({ toolName: 'Bash' });
    expect(r.input.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    // 6 iterations: 6 blocks of one dispatch each (at most one block per dispatch).
    expect(r.blocks).toHaveLength(6);
    expect(r.blocks.map((b) => b.dispatches)).toEqual([1, 1, 1, 1, 1, 1]);
    for (const b of r.blocks) expect(Object.keys(b.perHook)).toEqual(['js-allow', 'fails']);
    expect(r.blocks[5]!.atMs).toBeGreaterThan(r.blocks[0]!.atMs);
  });

  it('splits each dispatch into queue, transport, hook run and fold, per dispatch and per hook', async () => {
    const r = await runBench({
      ...tiny,
      config: mixed,
      event: 'PreToolUse',
      input: input({ toolName: 'Bash' }),
    });
    const o = r.stages.overall;
    expect(Object.keys(r.stages.perHook)).toEqual(['js-allow', 'fails']);
    for (const s of [o, ...Object.values(r.stages.perHook)])
      for (const v of [s.queueMs, s.transportMs, s.runMs]) expect(v).toBeGreaterThanOrEqual(0);
    // A command hook's run excludes its spawn(); the stages of a serial dispatch add up to its mean.
    expect(r.stages.perHook.fails!.transportMs).toBeGreaterThan(0);
    expect(r.stages.perHook.fails!.runMs).toBeLessThan(r.perHook.fails!.mean);
    expect(o.queueMs + o.transportMs + o.runMs + o.foldMs).toBeCloseTo(o.totalMs, 2);
    expect(o.totalMs).toBeCloseTo(r.overall.mean, 2);
  });

  it('--vary-input gives every dispatch its own timestamp, so a seeded Math.random takes other paths', async () => {
    // The guest's Math.random is seeded from the input: with one input, every call draws the same number.
    const coin = {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              {
                type: 'js',
                name: 'coin',
                code: "export default () => ({ decision: Math.random() < 0.5 ? 'deny' : 'allow' })",
              },
            ],
          },
        ],
      },
    };
    const base = {
      ...tiny,
      iterations: 40,
      config: coin,
      event: 'BeforeTool',
      input: input({ toolName: 'Bash' }),
    };
    const fixed = await runBench(base);
    expect(Object.keys(fixed.decisions)).toHaveLength(1);
    const varied = await runBench({ ...base, varyInput: true });
    expect(varied.decisions.allow! + varied.decisions.deny!).toBe(40);
    expect(varied.decisions.allow).toBeGreaterThan(0);
    expect(varied.decisions.deny).toBeGreaterThan(0);
    expect(varied.input.varied).toBe(true);
    const redacted = await runBench({ ...base, iterations: 2, redactInput: true });
    expect(redacted.input).toEqual({ digest: fixed.input.digest, varied: false });
  });

  it('spreads dispatches round-robin over tenants t1…tT and reports each', async () => {
    const r = await runBench({
      ...tiny,
      iterations: 7,
      concurrency: 3,
      tenants: 3,
      config: mixed,
      event: 'BeforeTool',
      input: input({ toolName: 'Bash' }),
    });
    expect(Object.fromEntries(Object.entries(r.perTenant ?? {}).map(([t, s]) => [t, s.count]))).toEqual({
      t1: 3,
      t2: 2,
      t3: 2,
    });
  });

  it('records hooks after a deny as not-run', async () => {
    const r = await runBench({
      ...tiny,
      config: {
        hooks: {
          BeforeTool: [
            {
              hooks: [
                { command: 'exit 2', name: 'deny' },
                { command: 'true', name: 'after' },
              ],
            },
          ],
        },
      },
      event: 'BeforeTool',
      input: input({ toolName: 'Bash' }),
    });
    expect(r.decisions).toEqual({ deny: 6 });
    expect(r.perHook.after).toMatchObject({ count: 0, notRun: 6 });
  });

  it('rejects a dispatch the executor refuses, and leaves no hook process behind', async () => {
    const run = (event: string, extra: Record<string, unknown> = {}) =>
      runBench({ ...tiny, config: mixed, event, input: input(extra) });
    await expect(run('NoSuchEvent')).rejects.toMatchObject({ code: 'unknown_event' });
    await expect(run('BeforeTool', { toolName: 42 })).rejects.toMatchObject({ code: 'invalid_input' });
    expect(hookProcesses()).toEqual([]);
  });

  it('stops when its signal aborts, with the signal reason', async () => {
    const abort = new AbortController();
    const reason = new Error('stop now');
    const run = runBench({
      ...tiny,
      iterations: 100_000,
      config: { hooks: { BeforeTool: [{ hooks: [{ command: 'true' }] }] } },
      event: 'BeforeTool',
      input: input({ toolName: 'Bash' }),
      onProgress: (done) => {
        if (done === 3) abort.abort(reason);
      },
      signal: abort.signal,
    });
    await expect(run).rejects.toBe(reason);
  });

  it('runs without an input, like the CLI without --input: dispatch fills in the defaults', async () => {
    const result = await runBench({ ...tiny, config: mixed, event: 'BeforeTool' });
    expect(result.decisions).toEqual({ allow: tiny.iterations });
    expect(result.errors).toEqual({ nonzero_exit: tiny.iterations });
  });

  it('validates its options, naming the option and the value', async () => {
    const base = { config: mixed, event: 'BeforeTool', input: input() };
    const cases: [Record<string, unknown>, string][] = [
      [{ iterations: 0 }, 'iterations: expected an integer from 1 to 100000000, got 0'],
      [{ concurrency: 1.5 }, 'concurrency: expected an integer from 1 to 10000, got 1.5'],
      [{ tenants: -1 }, 'tenants: expected an integer from 1 to 10000, got -1'],
      [{ event: '' }, 'event: expected an event name, got ""'],
      [{ input: 'x' }, 'input: expected a HookInput object, got "x"'],
    ];
    for (const [extra, message] of cases) {
      const err = await runBench({ ...base, ...extra } as never).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HookwardenError);
      expect((err as HookwardenError).message).toBe(message);
    }
  });

  it('has pinned defaults', () => {
    expect(BENCH_DEFAULTS).toEqual({
      iterations: 1000,
      concurrency: 1,
      tenants: 1,
      warmup: 10,
      minBaselineSamples: 20,
      maxBaselineSamples: 200,
      blocks: 20,
      toolCallsPerSession: { p50: 69, p90: 423 },
    });
    expect(Object.isFrozen(BENCH_DEFAULTS)).toBe(true);
    expect(Object.isFrozen(BENCH_DEFAULTS.toolCallsPerSession)).toBe(true);
  });
});
