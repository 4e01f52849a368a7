// Every agent's edge fails closed (issue 38): the regressions found against the agents' own code
// (Claude Code 2.1.337, Gemini CLI 0.61.0, Copilot CLI 1.0.102, Cursor 3.9.16's docs), each with
// variants — other servers, other aliases, other events two agents share, other encodings. Real
// config files in the agents' own folders, real command hooks, the agents' own input shapes.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENTS } from '../../src/contract/agents/index.js';
import type { AgentName } from '../../src/contract/agents/protocol.js';
import { createExecutor, type Executor } from '../../src/index.js';
import { recorded } from '../helpers/agents.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';

type Obj = Record<string, unknown>;
const open: Executor[] = [];
afterAll(async () => {
  for (const e of open.splice(0)) await e.close();
});

async function executor(config: string[], policy: string[] = [], root = tempDir()): Promise<Executor> {
  const e = await createExecutor({ config, policy, root, onWarning: () => {} });
  open.push(e);
  return e;
}

/** A command hook that prints `stdout`, `stderr` and exits `code` (through files: any bytes). */
function answering(dir: string, name: string, a: { stdout?: string; stderr?: string; code?: number }) {
  const out = writeFile(join(dir, `${name}.out`), a.stdout ?? '');
  const err = writeFile(join(dir, `${name}.err`), a.stderr ?? '');
  return `cat >/dev/null; cat '${out}'; cat '${err}' >&2; exit ${a.code ?? 0}`;
}

/** Dispatches an agent's own input through its protocol, as the adapter does. */
async function viaAgent(e: Executor, agent: AgentName, event: string, raw: Obj) {
  const d = AGENTS[agent].toDispatch(event, raw);
  return e.dispatch(d.event, d.input);
}

/** A policy guard written once in the vocabulary: it denies whatever it is run for, saying what it saw. */
function policyGuard(dir: string, matcher: string): string {
  return writeConfig(dir, `policy-${matcher.replace(/\W/g, '_')}.json`, {
    hooks: {
      BeforeTool: [
        {
          matcher,
          hooks: [
            {
              type: 'js',
              name: 'guard',
              code: "export default (i) => ({ decision: 'deny', reason: 'guard saw ' + JSON.stringify(i.unplacedTool ?? null) })",
            },
          ],
        },
      ],
    },
  });
}

describe('a name hookwarden cannot place runs every guard that could match it, and says so', () => {
  const dir = tempDir();
  const user = writeConfig(dir, 'empty.json', { hooks: {} });

  it.each([
    ['cursor', 'beforeMCPExecution', { tool_name: 'create_issue', tool_input: '{"title":"x"}' }],
    ['cursor', 'preToolUse', { tool_name: 'MCP:create_issue', tool_input: { title: 'x' } }],
  ] as const)(
    '%s %s: a guard on mcp__github__.* runs (Cursor names no server)',
    async (agent, event, extra) => {
      const e = await executor([user], [policyGuard(dir, 'mcp__github__.*')]);
      const r = await viaAgent(e, agent, event, { ...recorded(agent)[event], ...extra });
      expect(r.decision).toBe('deny');
      expect(r.reason).toContain('Cursor does not say which MCP server');
      // Another server's guard could match too; one whose tool part cannot does not run.
      const other = await executor([user], [policyGuard(dir, 'mcp__linear__create_.*')]);
      expect((await viaAgent(other, agent, event, { ...recorded(agent)[event], ...extra })).decision).toBe(
        'deny',
      );
      const never = await executor([user], [policyGuard(dir, 'mcp__github__delete_issue')]);
      expect((await viaAgent(never, agent, event, { ...recorded(agent)[event], ...extra })).decision).toBe(
        'passthrough',
      );
    },
  );

  it.each([
    ['github-create_issue', 'mcp__github__.*', 'deny'],
    ['github-mcp-server-list_issues', 'mcp__github-mcp-server__.*', 'deny'],
    ['github-mcp-server-list_issues', 'mcp__github__.*', 'deny'],
    ['my-db-query', 'mcp__my-db__query', 'deny'],
    ['my-db-query', 'Bash', 'passthrough'],
  ])('Copilot %s: a guard on %s → %s', async (toolName, matcher, want) => {
    const e = await executor([user], [policyGuard(dir, matcher)]);
    const raw = { ...recorded('copilot').preToolUse, toolName, toolArgs: '{"q":1}' };
    const r = await viaAgent(e, 'copilot', 'preToolUse', raw);
    expect(r.decision).toBe(want);
    if (want === 'deny') expect(r.reason).toContain('"candidates"');
  });

  it.each([
    ['mcp_github_create_issue', 'mcp__github__.*'],
    ['mcp_my_server_create', 'mcp__my_server__create'],
    ['mcp_a_b_c_d', 'mcp__a_b__c_d'],
  ])('Gemini %s without mcp_context: a guard on %s runs', async (toolName, matcher) => {
    const e = await executor([user], [policyGuard(dir, matcher)]);
    const raw = { ...recorded('gemini').BeforeTool, tool_name: toolName, tool_input: {} };
    delete (raw as Obj).mcp_context;
    expect((await viaAgent(e, 'gemini', 'BeforeTool', raw)).decision).toBe('deny');
  });
});

describe('conflicting aliases of one argument deny on a guard-capable event', () => {
  const dir = tempDir();
  const user = writeConfig(dir, 'empty.json', { hooks: {} });
  // A guard on the vocabulary's key: it denies reading a secret, allows the rest.
  const policy = writeConfig(dir, 'policy.json', {
    hooks: {
      BeforeTool: [
        {
          hooks: [
            {
              type: 'js',
              code: "export default (i) => /secret/.test(JSON.stringify(i.toolInput ?? {})) ? { decision: 'deny', reason: 'secret' } : { decision: 'allow' }",
            },
          ],
        },
      ],
    },
  });

  it.each([
    ['view', { file_path: '/work/README.md', path: '/work/secret.env' }],
    ['create', { file_path: '/work/ok.txt', path: '/work/secret.txt', file_text: 'x' }],
    ['edit', { path: '/work/a.ts', old_string: 'a', old_str: 'secret', new_str: 'b' }],
    ['str_replace_editor', { path: '/w/a', content: 'fine', file_text: 'secret' }],
  ])('Copilot %s with both spellings: denied, naming them', async (toolName, args) => {
    const e = await executor([user], [policy]);
    const raw = { ...recorded('copilot').preToolUse, toolName, toolArgs: JSON.stringify(args) };
    let reason = '';
    try {
      const r = await viaAgent(e, 'copilot', 'preToolUse', raw);
      expect(r.decision).toBe('deny');
      reason = r.reason ?? '';
    } catch (err) {
      // The adapter answers an input it refuses with Copilot's deny (failure()).
      reason = (err as Error).message;
      expect((err as Error).name).toBe('AgentInputProblem');
    }
    expect(reason).toMatch(/name the same argument/);
  });

  it('the same value under both spellings is one argument: no conflict', async () => {
    const e = await executor([user], [policy]);
    const raw = {
      ...recorded('copilot').preToolUse,
      toolName: 'view',
      toolArgs: '{"path":"/w/a","file_path":"/w/a"}',
    };
    expect((await viaAgent(e, 'copilot', 'preToolUse', raw)).decision).toBe('allow');
  });

  it.each([
    [{ tool_input: { command: 'rm -rf /' }, toolInput: { command: 'ls' } }],
    [{ tool_name: 'Bash', toolName: 'Read', tool_input: { command: 'ls' } }],
  ])('a Claude Code input naming its call twice, differently: %j denied', async (twins) => {
    const e = await executor([user], [policy]);
    const r = await e.dispatch('PreToolUse', { session_id: 's', cwd: '/', tool_name: 'Bash', ...twins });
    expect(r.decision).toBe('deny');
    expect(r.reason).toMatch(/names its call twice/);
  });
});

describe("a file's dialect never flips on an event name two agents share", () => {
  const hooks = (answer: string) => ({
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo '${answer}'` }] }],
    Interrupt: [{ hooks: [{ type: 'command', command: 'true' }] }],
    StopFailure: [{ hooks: [{ type: 'command', command: 'true' }] }],
  });
  const bash = { session_id: 's', cwd: '/', tool_name: 'Bash', tool_input: { command: 'ls' } };

  it.each([
    ['{"continue": false, "stopReason": "stop here"}', 'deny'],
    ['{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}}', 'ask'],
    ['{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}', 'allow'],
  ])('a settings.json with Interrupt hooks is read as Claude Code: %s → %s', async (answer, want) => {
    for (const place of ['settings.json', '.claude/settings.json', '.claude/settings.local.json']) {
      const dir = tempDir();
      const e = await executor([writeConfig(dir, place, { hooks: hooks(answer) })]);
      expect([place, (await e.dispatch('PreToolUse', bash)).decision]).toEqual([place, want]);
    }
  });

  it('Cursor and Copilot share preToolUse: a file of either answers in either vocabulary', async () => {
    const answers = [
      '{"permissionDecision": "deny", "permissionDecisionReason": "copilot says no"}',
      '{"permission": "deny", "user_message": "cursor says no"}',
    ];
    for (const answer of answers) {
      const dir = tempDir();
      const file = writeConfig(dir, 'hooks.json', {
        version: 1,
        hooks: { preToolUse: [{ command: `echo '${answer}'` }] },
      });
      const e = await executor([file]);
      const raw = { ...recorded('cursor').preToolUse, tool_name: 'Shell', tool_input: { command: 'ls' } };
      expect([answer, (await viaAgent(e, 'cursor', 'preToolUse', raw)).decision]).toEqual([answer, 'deny']);
    }
  });

  it("a Copilot file's VS Code-compatible PascalCase events run (Copilot runs them)", async () => {
    const dir = tempDir();
    for (const [event, answer] of [
      ['PreToolUse', '{"permissionDecision": "deny", "permissionDecisionReason": "no"}'],
      ['PreToolUse', '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}'],
    ] as const) {
      const file = writeConfig(dir, '.github/hooks/guard.json', {
        version: 1,
        hooks: { [event]: [{ type: 'command', bash: `echo '${answer}'` }] },
      });
      const e = await executor([file], [], dir);
      const raw = { ...recorded('copilot').preToolUse, toolName: 'bash', toolArgs: '{"command":"ls"}' };
      expect([answer, (await viaAgent(e, 'copilot', 'preToolUse', raw)).decision]).toEqual([answer, 'deny']);
    }
  });
});

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
      'No reason provided',
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
