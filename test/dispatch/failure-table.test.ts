// Every row of the failure table (docs/semantics.md#failures), with real command hooks, in both onError
// modes.
import { describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';
import { hooksOn, input, printing, withExecutor } from '../helpers/fixture.js';

const sh = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });

const FAILING: [string, Record<string, unknown>, string, string][] = [
  ['non-JSON stdout', sh('echo hello'), 'error', 'invalid_output'],
  ['invalid output (wrong field type)', printing({ decision: 'perhaps' }), 'error', 'invalid_output'],
  ['exit 1', sh('echo broken >&2; exit 1'), 'error', 'nonzero_exit'],
  [
    'a program that cannot be spawned',
    { type: 'command', argv: ['/nonexistent/hook'] },
    'error',
    'spawn_failed',
  ],
  ['timeout', sh('sleep 5', { timeoutMs: 200 }), 'timeout', 'timeout'],
  ['output over the cap', sh('yes', { maxOutputBytes: 4096 }), 'limit', 'output_limit'],
];

describe('failure semantics', () => {
  it.each(FAILING)('%s is skipped by default (fail-open)', async (_name, hook, outcome, code) => {
    await withExecutor(
      { config: hooksOn('BeforeTool', [hook, printing({ decision: 'allow' })]) },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
        expect(r.decision).toBe('allow');
        expect(r.hooks[0]).toMatchObject({ outcome, error: { code } });
      },
    );
  });

  it.each(FAILING)(
    '%s denies with onError "deny" (fail-closed), the reason naming the hook',
    async (_name, hook, outcome, code) => {
      await withExecutor(
        {
          config: hooksOn('BeforeTool', [
            { ...hook, name: 'gate', onError: 'deny' },
            printing({ decision: 'allow' }),
          ]),
        },
        async (hw) => {
          const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
          expect(r).toMatchObject({
            decision: 'deny',
            decidedBy: 'gate',
            reason: expect.stringContaining('"gate"'),
          });
          expect(r.hooks.map((h) => h.outcome)).toEqual([outcome, 'not-run']);
          expect(r.hooks[0]!.error!.code).toBe(code);
        },
      );
    },
  );

  it('exit 2 denies with stderr as the reason, even when stdout says allow', async () => {
    const hook = sh('echo \'{"decision":"allow"}\'; echo "no rm -rf" >&2; exit 2');
    await withExecutor({ config: hooksOn('BeforeTool', [hook]) }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      expect(r).toMatchObject({ decision: 'deny', reason: 'no rm -rf' });
      expect(r.hooks[0]!.outcome).toBe('deny');
    });
  });

  it('caps the stderr used as a deny reason', async () => {
    await withExecutor(
      { config: hooksOn('BeforeTool', [sh('head -c 20000 /dev/zero | tr "\\0" x >&2; exit 2')]) },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
        expect(r.decision).toBe('deny');
        expect(r.reason!.length).toBeLessThanOrEqual(4097);
      },
    );
  });

  it('a caller abort denies deny-capable events (interrupted) and kills the running hook', async () => {
    await withExecutor(
      { config: hooksOn('BeforeTool', [sh('sleep 30'), printing({ decision: 'allow' })]) },
      async (hw) => {
        const ac = new AbortController();
        setTimeout(() => ac.abort(), 200);
        const started = Date.now();
        const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }), { signal: ac.signal });
        expect(Date.now() - started).toBeLessThan(5000);
        expect(r).toMatchObject({
          decision: 'deny',
          interrupted: true,
          reason: expect.stringMatching(/^interrupted/),
        });
        expect(r.hooks.map((h) => [h.outcome, h.error?.code])).toEqual([
          ['error', 'aborted'],
          ['not-run', undefined],
        ]);
      },
    );
  });

  it('an abort on an observer event is recorded without inventing a deny', async () => {
    await withExecutor({ config: hooksOn('SessionStart', [sh('sleep 30')]) }, async (hw) => {
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 150);
      const r = await hw.dispatch('SessionStart', input(), { signal: ac.signal });
      expect(r).toMatchObject({ decision: 'passthrough', interrupted: true });
    });
  });

  it('a signal aborted before the dispatch denies without running anything', async () => {
    await withExecutor({ config: hooksOn('BeforeTool', [printing({ decision: 'allow' })]) }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }), { signal: AbortSignal.abort() });
      expect(r).toMatchObject({ decision: 'deny', interrupted: true, hooks: [] });
    });
  });

  it('an invalid policy makes deny-capable events deny, while observer events still run user hooks', async () => {
    const config = {
      hooks: {
        BeforeTool: [{ hooks: [printing({ decision: 'allow' })] }],
        SessionStart: [{ hooks: [printing({ additionalContext: 'hi' })] }],
      },
    };
    const policy = {
      hooks: { BeforeTool: [{ hooks: [{ name: 'guard', command: 'exit 2', timeoutMs: 0 }] }] },
    };
    await withExecutor({ config, policy }, async (hw, warnings) => {
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      expect(r).toMatchObject({
        decision: 'deny',
        decidedBy: 'policy',
        reason: expect.stringContaining('timeoutMs: expected a positive integer'),
      });
      const s = await hw.dispatch('SessionStart', input());
      expect(s).toMatchObject({ decision: 'passthrough', additionalContext: 'hi' });
      expect(warnings.join('\n')).toContain('timeoutMs');
    });
  });

  it('an unreadable policy file stops the executor from starting (config_error)', async () => {
    await expect(createExecutor({ policy: '/nonexistent/policy.json', onWarning: () => {} })).rejects.toThrow(
      /^\/nonexistent\/policy\.json: file not found$/,
    );
  });

  it('a fail-closed observer failure makes the verdict deny (mandatory observer)', async () => {
    await withExecutor(
      { config: hooksOn('SessionEnd', [sh('exit 1', { name: 'audit', onError: 'deny' })]) },
      async (hw) => {
        const r = await hw.dispatch('SessionEnd', input());
        expect(r).toMatchObject({ decision: 'deny', decidedBy: 'audit' });
      },
    );
  });
});

describe('a hook that never started', () => {
  it('is recorded not-run in every lane (aborted while queued), and its onError still applies', async () => {
    const busy = {
      name: 'busy',
      type: 'js',
      code: 'export default () => { for (;;) {} }',
      timeoutMs: 20_000,
    };
    const queued = { name: 'queued', type: 'js', code: 'export default () => ({})', onError: 'deny' };
    const slow = { name: 'slow', command: 'exec sleep 30' };
    const waiting = { name: 'waiting', command: 'true', onError: 'deny' };
    await withExecutor(
      {
        config: {
          hooks: {
            BeforeTool: [{ hooks: [busy] }],
            BeforeTurn: [{ hooks: [queued] }],
            SessionStart: [{ hooks: [slow] }],
            AfterTool: [{ hooks: [waiting] }],
          },
        },
        limits: { jsThreads: 1, maxConcurrentCommands: 1 },
      },
      async (hw) => {
        const started = new Set<string>();
        const seen = new Promise<void>((resolve) =>
          hw.on('hook.started', (e) => {
            started.add(e.hookId);
            if (started.has('busy') && started.has('slow')) resolve();
          }),
        );
        const stop = new AbortController();
        const holdJs = hw.dispatch('BeforeTool', input({ toolName: 'Bash' }), { signal: stop.signal });
        const holdCommand = hw.dispatch('SessionStart', input(), { signal: stop.signal });
        await seen;
        const abort = new AbortController();
        const js = hw.dispatch('BeforeTurn', input({ prompt: 'x' }), { signal: abort.signal });
        const command = hw.dispatch('AfterTool', input({ toolName: 'Bash' }), { signal: abort.signal });
        abort.abort();
        const [j, c] = await Promise.all([js, command]);
        expect(j.hooks).toMatchObject([{ id: 'queued', outcome: 'not-run', error: { code: 'aborted' } }]);
        expect(c.hooks).toMatchObject([{ id: 'waiting', outcome: 'not-run', error: { code: 'aborted' } }]);
        expect([j.decision, c.decision]).toEqual(['deny', 'deny']);
        stop.abort();
        await Promise.all([holdJs, holdCommand]);
      },
    );
  });
});

describe('error details', () => {
  it('carry the numbers a message states, typed per code', async () => {
    const config = {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              { name: 'exit3', command: 'exit 3' },
              { name: 'flood', command: 'head -c 5000 /dev/zero', maxOutputBytes: 1000 },
              {
                name: 'big-js',
                type: 'js',
                code: "export default () => ({ reason: 'x'.repeat(5000) })",
                maxOutputBytes: 1000,
              },
            ],
          },
        ],
      },
    };
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      expect(r.hooks.map((h) => [h.id, h.error?.code, h.error?.details])).toEqual([
        ['exit3', 'nonzero_exit', { exitCode: 3 }],
        ['flood', 'output_limit', { limitBytes: 1000 }],
        ['big-js', 'output_limit', { limitBytes: 1000, actualBytes: expect.any(Number) }],
      ]);
    });
  });
});
