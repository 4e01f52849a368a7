// Every agent's edge fails closed (issue 38): how each agent's hooks' answers are read, against its own
// code — Claude Code 2.1.337 (Interrupt, mcp_server.built_in, JSON at any exit code), Gemini CLI
// 0.61.0's reading of stdout and stderr, and what the invariant-7 properties found — each with
// variants. Real config files in the agents' own folders, real command hooks.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentName } from '../../src/contract/agents/protocol.js';
import { answering, executor, type Obj, viaAgent } from '../helpers/agent-edges.js';
import { recorded } from '../helpers/agents.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';

describe('Claude Code 2.1.337', () => {
  it('Interrupt: a hookwarden event, its matcher on source, its output ignored', async () => {
    const dir = tempDir();
    const seen = join(dir, 'seen');
    const file = writeConfig(dir, '.claude/settings.json', {
      hooks: {
        Interrupt: [
          {
            matcher: 'user',
            hooks: [{ type: 'command', command: `cat > '${seen}'; echo '{"decision":"block"}'` }],
          },
          { matcher: 'system', hooks: [{ type: 'command', command: 'exit 2' }] },
        ],
      },
    });
    const e = await executor([file]);
    const r = await e.dispatch('Interrupt', {
      session_id: 's',
      cwd: '/',
      source: 'user',
      reason: 'stop',
      via: 'terminal',
    });
    expect(r.hooks.map((h) => h.outcome)).toHaveLength(1);
    expect(r.decision).not.toBe('deny');
  });

  it('a JSON answer that denies or asks counts at any exit code', async () => {
    for (const [answer, code, want] of [
      ['{"decision":"block","reason":"no"}', 1, 'deny'],
      ['{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}', 3, 'deny'],
      ['{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}', 1, 'ask'],
      ['{"continue":false}', 7, 'deny'],
    ] as const) {
      const dir = tempDir();
      const file = writeConfig(dir, '.claude/settings.json', {
        hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: `echo '${answer}'; exit ${code}` }] }] },
      });
      const e = await executor([file]);
      const r = await e.dispatch('PreToolUse', {
        session_id: 's',
        cwd: '/',
        tool_name: 'Bash',
        tool_input: {},
      });
      expect([answer, code, r.decision]).toEqual([answer, code, want]);
    }
  });

  it('mcp_server.built_in reaches guards as mcpServer.builtIn; absent, it is unknown', async () => {
    const dir = tempDir();
    const file = writeConfig(dir, 'hooks.json', {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              {
                type: 'js',
                timeoutMs: 30_000,
                code: "export default (i) => ({ decision: 'deny', reason: JSON.stringify(i.mcpServer ?? null) })",
              },
            ],
          },
        ],
      },
    });
    const e = await executor([file]);
    const call = { session_id: 's', cwd: '/', tool_name: 'mcp__computer__click', tool_input: {} };
    const builtIn = await e.dispatch('PreToolUse', {
      ...call,
      mcp_server: { name: 'computer', source: 'claudeai', built_in: true },
    });
    expect(JSON.parse(builtIn.reason!)).toEqual({ name: 'computer', source: 'claudeai', builtIn: true });
    const unknown = await e.dispatch('PreToolUse', { ...call, mcp_server: { name: 'x', source: 'project' } });
    expect(JSON.parse(unknown.reason!)).toEqual({ name: 'x', source: 'project' });
    const claimed = await e.dispatch('PreToolUse', { ...call, mcp_server: { name: 'x', built_in: 'yes' } });
    expect(JSON.parse(claimed.reason!)).toEqual({ name: 'x' });
  });
});

describe("Gemini CLI's answers, read as Gemini CLI 0.61.0 reads them", () => {
  const run = async (a: { stdout?: string; stderr?: string; code?: number }, event = 'BeforeTool') => {
    const dir = tempDir();
    const file = writeConfig(dir, '.gemini/settings.json', {
      hooks: { [event]: [{ hooks: [{ type: 'command', command: answering(dir, 'h', a) }] }] },
    });
    const e = await executor([file], [], dir);
    return viaAgent(e, 'gemini', event, recorded('gemini')[event]!);
  };
  const deny = (reason: string) => JSON.stringify({ decision: 'deny', reason });

  it.each([
    ['stderr, stdout empty, exit 0', { stderr: deny('from stderr') }, 'from stderr'],
    ['stderr, stdout blank, exit 1', { stdout: ' \n', stderr: deny('on exit 1'), code: 1 }, 'on exit 1'],
    ['stdout encoded twice, exit 0', { stdout: JSON.stringify(deny('twice')) }, 'twice'],
    ['stderr encoded twice, exit 0', { stderr: JSON.stringify(deny('twice on stderr')) }, 'twice on stderr'],
    ['block, stdout, exit 3', { stdout: '{"decision":"block","reason":"blocked"}', code: 3 }, 'blocked'],
    [
      'stopReason over reason',
      { stdout: '{"continue":false,"stopReason":"stopped","reason":"r"}' },
      'stopped',
    ],
    [
      'a reason hookwarden types would refuse',
      { stdout: '{"decision":"deny","reason":5}' },
      'says deny, but is malformed (reason',
    ],
  ])('%s: a deny', async (_what, a, reason) => {
    const r = await run(a);
    expect(r.decision).toBe('deny');
    expect(r.reason).toContain(reason);
  });

  it.each([
    ['JSON on stdout, stderr empty', { stdout: deny('kept'), code: 2 }, 'kept'],
    ['plain text on stdout', { stdout: 'no rm here', code: 2 }, 'no rm here'],
    ['JSON on stderr only', { stderr: deny('from stderr'), code: 2 }, 'from stderr'],
  ])('exit 2, %s: the deny keeps its reason', async (_what, a, reason) => {
    const r = await run(a);
    expect(r.decision).toBe('deny');
    expect(r.reason).toBe(reason);
  });
});

describe('found by the invariant-7 properties (each case and its variants)', () => {
  /** One hook of `agent`'s own file answering `stdout` (exit `code`) at its gate; the verdict. */
  async function answer(agent: AgentName | 'claude-code', stdout: string, code = 0, matcher?: string) {
    const dir = tempDir();
    const command = answering(dir, 'h', { stdout, code });
    const group = { ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: 'command', command }] };
    const files: Record<string, [string, Obj, string]> = {
      'claude-code': ['.claude/settings.json', { hooks: { PreToolUse: [group] } }, 'PreToolUse'],
      codex: ['.codex/hooks.json', { hooks: { PreToolUse: [group] } }, 'PreToolUse'],
      cursor: ['.cursor/hooks.json', { version: 1, hooks: { preToolUse: [{ command }] } }, 'preToolUse'],
      copilot: [
        '.github/hooks/guard.json',
        { version: 1, hooks: { preToolUse: [{ type: 'command', bash: command }] } },
        'preToolUse',
      ],
    };
    const [place, body, event] = files[agent]!;
    const e = await executor([writeConfig(dir, place, body)], [], dir);
    if (agent === 'claude-code')
      return e.dispatch('PreToolUse', {
        session_id: 's',
        cwd: dir,
        tool_name: 'mcp__my-db__query',
        tool_input: {},
      });
    const raw =
      agent === 'copilot'
        ? { ...recorded('copilot').preToolUse, toolName: 'bash', toolArgs: '{"command":"ls"}' }
        : agent === 'codex'
          ? { ...recorded('codex').PreToolUse, tool_name: 'mcp__my-db__query', tool_input: {} }
          : { ...recorded('cursor').preToolUse, tool_name: 'Shell', tool_input: { command: 'ls' } };
    return viaAgent(e, agent, event, raw);
  }

  it.each([
    // Claude Code: a block stands beside another event's output, whatever that output holds.
    [
      'claude-code',
      '{"decision":"block","hookSpecificOutput":{"hookEventName":"Stop","permissionDecisionReason":5}}',
      0,
    ],
    [
      'claude-code',
      '{"decision":"block","hookSpecificOutput":{"hookEventName":"Stop","permissionDecisionReason":5}}',
      1,
    ],
    [
      'claude-code',
      '{"decision":"block","hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"allow"}}',
      0,
    ],
    [
      'claude-code',
      '{"decision":"block","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}',
      0,
    ],
    [
      'claude-code',
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"},"decision":"approve"}',
      0,
    ],
    // Copilot: one answer never loosens itself; what its typed parser refuses is a hook that errs.
    ['copilot', '{"permissionDecision":"deny","decision":"allow"}', 0],
    ['copilot', '{"permissionDecision":"bogus","decision":"allow"}', 0],
    ['copilot', '{"decision":"ask","reason":5}', 0],
    ['copilot', '{"reason":5}', 0],
    ['copilot', 'allowed by policy', 0],
    ['copilot', 'null', 0],
    ['copilot', '"{}"', 0],
    // Cursor: a stop said in a malformed answer still stops.
    ['cursor', '{"permission":"bogus","continue":false}', 0],
    ['cursor', '{"permission":"deny","continue":true,"extra":1}', 0],
  ] as const)('%s answering %s (exit %d): denied', async (agent, stdout, code) => {
    expect((await answer(agent, stdout, code)).decision).toBe('deny');
  });

  it.each(['my-db', 'y-d', 'Read,Write|mcp__my-db__query'])(
    "Codex's matcher %s is a regex searched in the name (only [A-Za-z0-9_|] is exact): its hook runs",
    async (matcher) => {
      expect((await answer('codex', '', 2, matcher)).decision).toBe('deny');
    },
  );
});
