// Every agent's edge fails closed (issue 38): the regressions of names, aliases and dialects found against the agents' own code
// (Claude Code 2.1.337, Gemini CLI 0.61.0, Copilot CLI 1.0.102, Cursor 3.9.16's docs), each with
// variants — other servers, other aliases, other events two agents share, other encodings. Real
// config files in the agents' own folders, real command hooks, the agents' own input shapes.
import { describe, expect, it } from 'vitest';
import { executor, type Obj, policyGuard, viaAgent } from '../helpers/agent-edges.js';
import { recorded } from '../helpers/agents.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';

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
              timeoutMs: 30_000,
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
