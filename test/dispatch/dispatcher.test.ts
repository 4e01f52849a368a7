// Dispatch semantics with real command hooks: order, chains, fan-out, dedup, matchers, budgets, limits.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hooksOn, input, printing, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

const NODE = process.execPath;
const sh = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });
/** A command hook written in JS (run by node), reading the HookInput from stdin. */
const nodeHook = (body: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  argv: [
    NODE,
    '-e',
    `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const input=JSON.parse(s);${body}})`,
  ],
  ...extra,
});

describe('dispatch', () => {
  it('returns passthrough without touching the pool when nothing matches', async () => {
    const config = hooksOn('BeforeTool', [sh('sleep 2')], { matcher: 'Bash' });
    await withExecutor({ config, limits: { maxConcurrentCommands: 1 } }, async (hw) => {
      // The only command slot is busy for 2 s; a dispatch that needs no hook must not wait for it.
      const started = new Promise((r) => hw.on('hook.started', r));
      const busy = hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      await started;
      const at = performance.now();
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Read' }));
      expect(performance.now() - at).toBeLessThan(500);
      expect(r).toEqual({ event: 'BeforeTool', decision: 'passthrough', hooks: [] });
      expect(await hw.dispatch('AfterCompact', input())).toEqual({
        event: 'AfterCompact',
        decision: 'passthrough',
        hooks: [],
      });
      await busy;
    });
  });

  it('runs trusted, then policy, then project, then user hooks', async () => {
    const dir = tempDir();
    const ctx = (text: string) => printing({ additionalContext: text });
    const policy = writeConfig(dir, 'policy.json', hooksOn('BeforeTool', [ctx('policy')]));
    const project = writeConfig(dir, 'project.json', hooksOn('BeforeTool', [ctx('project')]));
    const user = writeConfig(dir, 'user.json', hooksOn('BeforeTool', [ctx('user')]));
    await withExecutor({ config: [{ path: user, scope: 'user' }, project], policy }, async (hw) => {
      hw.register({
        event: 'BeforeTool',
        name: 'builtin',
        handler: () => ({ additionalContext: 'trusted' }),
      });
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      expect(r.additionalContext).toBe('trusted\npolicy\nproject\nuser');
      expect(r.hooks.map((h) => h.scope)).toEqual(['trusted', 'policy', 'project', 'user']);
    });
  });

  it('chains rewrites on serial events and stops at the first deny', async () => {
    const dir = tempDir();
    const marker = join(dir, 'ran');
    const config = hooksOn('BeforeTool', [
      printing({ mutatedToolInput: { command: 'ls -la' } }),
      nodeHook(`console.log(JSON.stringify({ additionalContext: 'saw ' + input.toolInput.command }))`),
      sh('echo stop >&2; exit 2', { name: 'denier' }),
      sh(`touch ${marker}`, { name: 'after' }),
    ]);
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: { command: 'ls' } }));
      expect(r).toMatchObject({
        decision: 'deny',
        decidedBy: 'denier',
        reason: 'stop',
        additionalContext: 'saw ls -la',
        mutatedToolInput: { command: 'ls -la' },
      });
      expect(r.hooks.map((h) => h.outcome)).toEqual(['proceed', 'proceed', 'deny', 'not-run']);
      expect(existsSync(marker)).toBe(false);
    });
  });

  it('lets ask not stop the chain, and ranks a later deny above it', async () => {
    const config = hooksOn('BeforeTool', [
      printing({ decision: 'ask', reason: 'check' }),
      printing({ decision: 'deny', reason: 'no' }, { name: 'd' }),
    ]);
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      expect(r).toMatchObject({ decision: 'deny', decidedBy: 'd', reason: 'no' });
    });
  });

  it('fans parallel events out and reassembles results in registration order, not completion order', async () => {
    const config = hooksOn('SessionStart', [
      sh(`sleep 0.4; echo '{"additionalContext":"slow first"}'`),
      printing({ additionalContext: 'fast second' }),
    ]);
    await withExecutor({ config }, async (hw) => {
      const started = performance.now();
      const r = await hw.dispatch('SessionStart', input());
      expect(r.additionalContext).toBe('slow first\nfast second');
      expect(r.hooks.map((h) => h.latencyMs > 300)).toEqual([true, false]);
      // Both ran at once: the whole dispatch took about as long as the slow hook, not the sum.
      expect(performance.now() - started).toBeLessThan(5000);
    });
  });

  it('runs identical specs once per event', async () => {
    const config = {
      hooks: {
        BeforeTool: [
          { matcher: 'Bash', hooks: [printing({ additionalContext: 'x' })] },
          { matcher: 'Bash|Edit', hooks: [printing({ additionalContext: 'x' })] },
        ],
      },
    };
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      expect(r.hooks).toHaveLength(1);
      expect(r.additionalContext).toBe('x');
      expect((await hw.dispatch('BeforeTool', input({ toolName: 'Edit' }))).hooks).toHaveLength(1);
    });
  });

  it('applies matchers and if filters on tool events, and matchers on events with a matcher field', async () => {
    const config = {
      hooks: {
        BeforeTool: [
          {
            matcher: 'Bash',
            if: 'Bash(git push*)',
            hooks: [printing({ decision: 'ask' }, { name: 'push' })],
          },
          { matcher: 'mcp__.*', hooks: [printing({ decision: 'deny' }, { name: 'mcp' })] },
        ],
        BeforeTurn: [{ matcher: 'Bash', hooks: [printing({ additionalContext: 'always' })] }],
        SessionStart: [{ matcher: 'startup|clear', hooks: [printing({ additionalContext: 'fresh' })] }],
      },
    };
    await withExecutor({ config }, async (hw, warnings) => {
      expect(
        (await hw.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: { command: 'git push -f' } })))
          .decision,
      ).toBe('ask');
      expect(
        (await hw.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: { command: 'git status' } })))
          .decision,
      ).toBe('passthrough');
      expect((await hw.dispatch('BeforeTool', input({ toolName: 'mcp__github__merge' }))).decision).toBe(
        'deny',
      );
      expect((await hw.dispatch('BeforeTurn', input({ prompt: 'hi' }))).additionalContext).toBe('always');
      expect(warnings).toEqual([expect.stringContaining('matcher ignored: BeforeTurn has no matcher field')]);
      // SessionStart's matcher tests `source` (Claude Code's startup, resume, clear, compact).
      expect((await hw.dispatch('SessionStart', input({ source: 'clear' }))).additionalContext).toBe('fresh');
      expect(
        (await hw.dispatch('SessionStart', input({ source: 'resume' }))).additionalContext,
      ).toBeUndefined();
    });
  });

  it('resolves aliases both in config and at dispatch; PostToolUse hooks see successes, PostToolUseFailure failures, AfterTool both', async () => {
    const config = {
      hooks: {
        PostToolUse: [{ hooks: [printing({ additionalContext: 'post' })] }],
        PostToolUseFailure: [{ hooks: [printing({ additionalContext: 'failure' })] }],
        AfterTool: [{ hooks: [printing({ additionalContext: 'any' })] }],
      },
    };
    await withExecutor({ config }, async (hw) => {
      expect((await hw.dispatch('AfterTool', input({ toolName: 'Bash', ok: true }))).additionalContext).toBe(
        'post\nany',
      );
      expect((await hw.dispatch('AfterTool', input({ toolName: 'Bash', ok: false }))).additionalContext).toBe(
        'failure\nany',
      );
      const viaAlias = await hw.dispatch('PostToolUseFailure', input({ toolName: 'Bash' }));
      expect(viaAlias.event).toBe('AfterTool');
      expect(viaAlias.additionalContext).toBe('failure\nany');
      const success = await hw.dispatch('PostToolUse', input({ toolName: 'Bash' }));
      expect(success.additionalContext).toBe('post\nany');
    });
  });

  it('gives hooks registered under Claude Code names its snake_case input fields, and the HOOK_* environment', async () => {
    const config = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              nodeHook(
                `console.log(JSON.stringify({ additionalContext: [input.hook_event_name, input.tool_name, input.tool_input.command, input.session_id, process.env.HOOK_EVENT, process.env.HOOK_TOOL_NAME, process.env.CLAUDE_PROJECT_DIR === process.cwd()].join(',') }))`,
              ),
            ],
          },
        ],
      },
    };
    const root = tempDir();
    await withExecutor({ config, root }, async (hw) => {
      const r = await hw.dispatch(
        'BeforeTool',
        input({ toolName: 'Bash', toolInput: { command: 'ls' }, sessionId: 'abc' }),
      );
      expect(r.additionalContext).toBe('PreToolUse,Bash,ls,abc,BeforeTool,Bash,true');
    });
  });

  it('reads exit 2 on Stop as "keep working" (Claude Code semantics)', async () => {
    await withExecutor(
      { config: hooksOn('Stop', [sh('echo "tests still fail" >&2; exit 2')]) },
      async (hw) => {
        const r = await hw.dispatch('AfterTurn', input());
        expect(r).toMatchObject({ decision: 'passthrough', continueWork: { reason: 'tests still fail' } });
      },
    );
  });

  it('widens the deadline for a declared budget (floor + grace) and ignores a smaller one', async () => {
    const config = hooksOn('BeforeTool', [
      sh('sleep 0.5; echo \'{"additionalContext":"budgeted"}\'', { timeoutMs: 200, budgetMs: 300 }),
      sh('sleep 0.5; echo \'{"additionalContext":"too slow"}\'', { timeoutMs: 200, budgetMs: 100 }),
    ]);
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }));
      expect(r.hooks.map((h) => h.outcome)).toEqual(['proceed', 'timeout']);
      expect(r.additionalContext).toBe('budgeted');
    });
  });

  it('clamps declared budgets at limits.maxDeclaredBudgetMs with a warning', async () => {
    const config = {
      limits: { maxDeclaredBudgetMs: 1000 },
      ...hooksOn('BeforeTool', [sh('true', { budgetMs: 50_000 })]),
    };
    await withExecutor({ config }, async (_hw, warnings) => {
      expect(warnings).toEqual([
        expect.stringMatching(
          /budgetMs: declared budget 50000 ms is above limits.maxDeclaredBudgetMs and was clamped to 1000 ms/,
        ),
      ]);
    });
  });

  it('runs at most limits.maxHookCalls hooks per dispatch', async () => {
    const config = {
      limits: { maxHookCalls: 2 },
      ...hooksOn('SessionStart', [
        printing({ additionalContext: '1' }),
        printing({ additionalContext: '2' }),
        printing({ additionalContext: '3' }),
      ]),
    };
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('SessionStart', input());
      expect(r.additionalContext).toBe('1\n2');
      expect(r.hooks[2]).toMatchObject({ outcome: 'not-run', error: { code: 'max_hook_calls' } });
    });
  });

  it('queues command hooks beyond limits.maxConcurrentCommands and reports the wait', async () => {
    const config = hooksOn('SessionStart', [sh('sleep 0.3'), sh('sleep 0.31')]);
    await withExecutor({ config, limits: { maxConcurrentCommands: 1 } }, async (hw) => {
      const r = await hw.dispatch('SessionStart', input());
      expect(r.hooks[1]!.queuedMs).toBeGreaterThan(200);
    });
  });

  it('runs a `once` hook once per session', async () => {
    await withExecutor(
      { config: hooksOn('BeforeTurn', [printing({ additionalContext: 'welcome' }, { once: true })]) },
      async (hw) => {
        expect((await hw.dispatch('BeforeTurn', input({ sessionId: 'a' }))).additionalContext).toBe(
          'welcome',
        );
        expect((await hw.dispatch('BeforeTurn', input({ sessionId: 'a' }))).hooks).toEqual([]);
        expect((await hw.dispatch('BeforeTurn', input({ sessionId: 'b' }))).additionalContext).toBe(
          'welcome',
        );
      },
    );
  });

  it('rejects unknown events and invalid input with a message naming the field and value', async () => {
    await withExecutor({ config: hooksOn('BeforeTool', [printing({})]) }, async (hw) => {
      await expect(hw.dispatch('BeforeTol', input())).rejects.toMatchObject({
        code: 'unknown_event',
        message: expect.stringContaining('BeforeTool'),
      });
      await expect(hw.dispatch('BeforeTool', input({ toolName: 42 }))).rejects.toMatchObject({
        code: 'invalid_input',
        message: 'invalid hook input: input.toolName: expected a string, got 42',
      });
      const problems = [
        [{ sessionId: 7 }, 'input.sessionId: expected a string, got 7'],
        [{ sessionId: '' }, 'input.sessionId: expected a non-empty string, got ""'],
        [{ cwd: null }, 'input.cwd: expected a string, got null'],
        [
          { timestamp: 'now' },
          'input.timestamp: expected an ISO 8601 date-time, e.g. "2026-11-29T12:00:00Z", got "now"',
        ],
        [{ toolInput: 'ls' }, 'input.toolInput: expected an object, got "ls"'],
        [{ caller: {} }, 'input.caller.kind: missing, expected one of "main", "subagent"'],
        [{ caller: { kind: 'x' } }, 'input.caller.kind: expected one of "main", "subagent", got "x"'],
      ] as const;
      for (const [bad, message] of problems) {
        const err = await hw.dispatch('BeforeTool', bad as never).catch((e: unknown) => e);
        expect(err).toMatchObject({ code: 'invalid_input', message: expect.stringContaining(message) });
      }
    });
  });

  it('fills in a missing sessionId ("default"), cwd (the sandbox root) and timestamp (now) in the library', async () => {
    const root = tempDir();
    const echo = nodeHook(
      "console.log(JSON.stringify({additionalContext:[input.sessionId,input.cwd,input.timestamp].join(' ')}))",
    );
    await withExecutor({ config: hooksOn('BeforeTurn', [echo]), root }, async (hw) => {
      const before = Date.now();
      const filled = await hw.dispatch('BeforeTurn', { prompt: 'hi' });
      const [sessionId, cwd, timestamp] = filled.additionalContext!.split(' ');
      expect([sessionId, cwd]).toEqual(['default', root]);
      expect(Date.parse(timestamp!)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(timestamp!)).toBeLessThanOrEqual(Date.now());
      // No input at all is an empty one; given fields are kept.
      expect((await hw.dispatch('BeforeTurn')).additionalContext).toMatch(/^default /);
      const given = await hw.dispatch('BeforeTurn', input({ sessionId: 'abc' }));
      expect(given.additionalContext).toBe('abc /tmp 2026-11-29T12:00:00.000Z');
    });
  });

  it('lists output fields the event does not honour', async () => {
    await withExecutor(
      {
        config: hooksOn('AfterTool', [
          printing({ decision: 'deny', updatedToolOutput: 'redacted', mutatedPrompt: 'x', extra: 1 }),
        ]),
      },
      async (hw) => {
        const r = await hw.dispatch('AfterTool', input({ toolName: 'Bash' }));
        expect(r).toMatchObject({ decision: 'passthrough', updatedToolOutput: 'redacted' });
        expect(r.hooks[0]!.ignoredFields).toEqual(['decision', 'mutatedPrompt', 'extra']);
      },
    );
  });
});
