// Prompt and agent hooks, answered by evaluators this test registers as the embedding platform
// would: real async functions, with the hook's deadline, the dispatch's abort and close() applied.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createExecutor,
  type EvaluatorContext,
  type EvaluatorHook,
  type HookEvaluator,
  type HookInput,
} from '../../src/index.js';
import { hooksOn, input, withExecutor } from '../helpers/fixture.js';

const TOOL = { toolName: 'Bash', toolInput: { command: 'git push --force' } };
const promptHook = (extra: Record<string, unknown> = {}) =>
  hooksOn('PreToolUse', [{ type: 'prompt', prompt: 'Is this safe? $ARGUMENTS', ...extra }], {
    matcher: 'Bash',
  });

interface Call {
  hook: EvaluatorHook;
  input: Readonly<HookInput>;
  ctx: EvaluatorContext;
}

/** An evaluator that records its calls and answers with `answer(call)`. */
function recording(answer: (call: Call) => unknown): { evaluator: HookEvaluator; calls: Call[] } {
  const calls: Call[] = [];
  const evaluator: HookEvaluator = async (hook, input, ctx) => {
    const call = { hook, input, ctx };
    calls.push(call);
    return (await answer(call)) as never;
  };
  return { evaluator, calls };
}

/** Resolves when `signal` aborts (the evaluator's own view of being cancelled). */
const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) =>
    signal.addEventListener('abort', () => resolve(signal.reason), { once: true }),
  );

describe('a prompt hook', () => {
  it('is answered by the prompt evaluator, which sees a frozen view of the hook and the input', async () => {
    const { evaluator, calls } = recording(() => ({ decision: 'deny', reason: 'force-push is not allowed' }));
    await withExecutor(
      {
        config: promptHook({ name: 'judge', model: 'small-model', continueOnBlock: true }),
        evaluators: { prompt: evaluator },
      },
      async (hw) => {
        const r = await hw.dispatch('PreToolUse', input(TOOL));
        expect(r).toMatchObject({
          decision: 'deny',
          reason: 'force-push is not allowed',
          decidedBy: 'judge',
        });
        expect(r.hooks[0]).toMatchObject({ id: 'judge', type: 'prompt', outcome: 'deny' });
      },
    );
    const [{ hook, input: seen, ctx }] = calls as [Call];
    expect(hook).toEqual({
      id: 'judge',
      type: 'prompt',
      event: 'BeforeTool',
      claudeEvent: 'PreToolUse',
      scope: 'project',
      prompt: 'Is this safe? $ARGUMENTS',
      model: 'small-model',
      continueOnBlock: true,
      timeoutMs: 30_000,
      deadlineMs: 30_000,
      origin: expect.stringContaining('hooks.PreToolUse[0].hooks[0]'),
    });
    expect(Object.isFrozen(hook)).toBe(true);
    expect(seen).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: 'git push --force' },
      toolName: 'Bash',
    });
    expect(Object.isFrozen(seen)).toBe(true);
    expect(Object.isFrozen(seen.toolInput)).toBe(true);
    expect(JSON.parse(ctx.inputJson)).toEqual(seen);
    expect(ctx.signal.aborted).toBe(false);
  });

  it("may answer in Claude Code's shape: a block on Stop means keep working", async () => {
    const { evaluator } = recording(() => ({ decision: 'block', reason: 'the tests have not run yet' }));
    const config = hooksOn('Stop', [{ type: 'agent', prompt: 'Did the work finish? $ARGUMENTS' }]);
    await withExecutor({ config, evaluators: { agent: evaluator } }, async (hw) => {
      const r = await hw.dispatch('Stop', input());
      expect(r.continueWork).toEqual({ reason: 'the tests have not run yet' });
      expect(r.hooks[0]).toMatchObject({ type: 'agent' });
    });
  });

  it('with no answer (undefined) has no opinion', async () => {
    const { evaluator } = recording(() => undefined);
    await withExecutor({ config: promptHook(), evaluators: { prompt: evaluator } }, async (hw) => {
      const r = await hw.dispatch('PreToolUse', input(TOOL));
      expect(r.decision).toBe('passthrough');
      expect(r.hooks[0]).toMatchObject({ outcome: 'proceed' });
    });
  });

  it.each([
    [
      'throws',
      () => Promise.reject(new TypeError('model unavailable')),
      'error',
      'runtime_error',
      'TypeError: model unavailable',
    ],
    ['answers an invalid output', () => ({ decision: 'perhaps' }), 'error', 'invalid_output', 'decision'],
  ])(
    'whose evaluator %s fails: skipped by default, deny with onFailure "block"',
    async (_n, answer, outcome, code, message) => {
      const { evaluator } = recording(answer);
      await withExecutor({ config: promptHook(), evaluators: { prompt: evaluator } }, async (hw) => {
        const r = await hw.dispatch('PreToolUse', input(TOOL));
        expect(r.decision).toBe('passthrough');
        expect(r.hooks[0]).toMatchObject({
          outcome,
          error: { code, message: expect.stringContaining(message) },
        });
      });
      await withExecutor(
        { config: promptHook({ name: 'judge', onFailure: 'block' }), evaluators: { prompt: evaluator } },
        async (hw) => {
          const r = await hw.dispatch('PreToolUse', input(TOOL));
          expect(r).toMatchObject({
            decision: 'deny',
            reason: expect.stringContaining(`"judge" failed (${code})`),
          });
        },
      );
    },
  );

  it('that misses its deadline is a timeout, and the evaluator is told through its signal', async () => {
    let reason: unknown;
    const { evaluator } = recording(async ({ ctx }) => {
      reason = await aborted(ctx.signal);
      return { decision: 'allow' };
    });
    await withExecutor(
      { config: promptHook({ timeout: 0.2 }), evaluators: { prompt: evaluator } },
      async (hw) => {
        const r = await hw.dispatch('PreToolUse', input(TOOL));
        expect(r.hooks[0]).toMatchObject({
          outcome: 'timeout',
          error: { code: 'timeout', details: { deadlineMs: 200 } },
        });
      },
    );
    expect(reason).toBeInstanceOf(Error);
  });

  it("is cancelled by the dispatch's abort signal and by close()", async () => {
    const started: Call[] = [];
    let onCall: () => void = () => {};
    const called = () => new Promise<void>((resolve) => (onCall = resolve));
    const evaluator: HookEvaluator = async (hook, input, ctx) => {
      started.push({ hook, input, ctx });
      onCall();
      await aborted(ctx.signal);
      return undefined;
    };
    const hw = await createExecutor({
      config: promptHook(),
      evaluators: { prompt: evaluator },
      onWarning: () => {},
    });
    const abort = new AbortController();
    let call = called();
    const first = hw.dispatch('PreToolUse', input(TOOL), { signal: abort.signal });
    await call;
    abort.abort();
    expect(await first).toMatchObject({ decision: 'deny', interrupted: true });
    expect(started[0]!.ctx.signal.aborted).toBe(true);
    call = called();
    const second = hw.dispatch('PreToolUse', input(TOOL));
    await call;
    await hw.close();
    expect(started[1]!.ctx.signal.aborted).toBe(true);
    expect((await second).hooks[0]).toMatchObject({ error: { code: 'pool_closed' } });
  });

  it('of a type without an evaluator is skipped at load with a warning that says how to register one', async () => {
    const { evaluator } = recording(() => undefined);
    const config = hooksOn('Stop', [
      { type: 'prompt', prompt: 'p' },
      { type: 'agent', prompt: 'a' },
    ]);
    await withExecutor({ config, evaluators: { prompt: evaluator } }, async (hw, warnings) => {
      expect(warnings).toEqual([
        expect.stringContaining(
          'hook type "agent" needs an evaluator, and none is registered: the platform embedding hookwarden answers agent hooks with createExecutor({ evaluators: { agent:',
        ),
      ]);
      expect((await hw.dispatch('Stop', input())).hooks.map((h) => h.type)).toEqual(['prompt']);
    });
  });

  it("defaults to Claude Code's timeouts: 30 s for prompt hooks, 60 s for agent hooks", async () => {
    const { evaluator, calls } = recording(() => undefined);
    const config = hooksOn('Stop', [
      { type: 'prompt', prompt: 'p' },
      { type: 'agent', prompt: 'a' },
    ]);
    await withExecutor({ config, evaluators: { prompt: evaluator, agent: evaluator } }, async (hw) => {
      await hw.dispatch('Stop', input());
    });
    expect(calls.map((c) => [c.hook.type, c.hook.deadlineMs])).toEqual([
      ['prompt', 30_000],
      ['agent', 60_000],
    ]);
  });

  it('loads from a real plugin config (corpus 28: a Stop prompt hook with $ARGUMENTS)', async () => {
    const path = join(
      import.meta.dirname,
      '../fixtures/claude-code-corpus/28-robinmin__cc-agents__plugins_rd_hooks_hooks.json',
    );
    const raw = JSON.parse(readFileSync(path, 'utf8'));
    const { evaluator, calls } = recording(() => ({ decision: 'block', reason: 'not done' }));
    await withExecutor({ config: path, evaluators: { prompt: evaluator } }, async (hw) => {
      const r = await hw.dispatch('Stop', input());
      expect(r.continueWork).toEqual({ reason: 'not done' });
    });
    expect(calls[0]!.hook.prompt).toBe(raw.hooks.Stop[0].hooks[0].prompt);
    expect(calls[0]!.hook.claudeEvent).toBe('Stop');
  });
});

describe('the evaluators option', () => {
  it.each([
    [{ prompt: 'not a function' }, 'evaluators.prompt: expected a function'],
    [{ command: async () => undefined }, 'evaluators.command: expected "prompt" or "agent" only'],
    [[], 'evaluators: expected an object'],
  ])('%j is a usage error', async (evaluators, message) => {
    await expect(createExecutor({ evaluators: evaluators as never })).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringContaining(message),
    });
  });
});
