// Every agent's edge fails closed (issue 38), through the real binaries: a Claude Code settings.json
// with an Interrupt hook (an event Claude Code 2.1.335 and Codex share) keeps Claude Code's reading
// under `dispatch -c`, `claude-code --config` and `cursor --config .claude/settings.json`; Claude
// Code's Interrupt itself is an event; Cursor's and Copilot's MCP calls reach a policy's MCP guard.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adapter, recorded } from '../helpers/agents.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';

const bash = {
  session_id: 's',
  cwd: '/',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
};

/** A Claude Code settings.json: an Interrupt hook, and a PreToolUse hook answering `answer`. */
function settings(dir: string, name: string, answer: unknown): string {
  return writeConfig(dir, name, {
    hooks: {
      Interrupt: [{ hooks: [{ type: 'command', command: 'true' }] }],
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: `echo '${JSON.stringify(answer)}'` }] },
      ],
    },
  });
}

const STOP = { continue: false, stopReason: 'stop here' };
const ASK = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask' } };

describe('a Claude Code settings.json with an Interrupt hook', () => {
  it.each([
    ['settings.json', STOP, 'deny'],
    ['settings.json', ASK, 'ask'],
    ['.claude/settings.local.json', STOP, 'deny'],
  ])('hookwarden dispatch -c %s: %j → %s', async (name, answer, want) => {
    const dir = tempDir();
    const file = settings(dir, name, answer);
    const r = await runCli(['dispatch', 'PreToolUse', '-c', file, '--root', dir, '-i', '-'], {
      stdin: JSON.stringify(bash),
    });
    expect(JSON.parse(r.stdout).decision).toBe(want);
  });

  it('hookwarden claude-code --config: continue:false blocks, ask asks', async () => {
    const dir = tempDir();
    const stop = await runCli(
      ['claude-code', '--config', settings(dir, 'settings.json', STOP), '--root', dir],
      {
        stdin: JSON.stringify(bash),
        env: { ...process.env, HOOKWARDEN_SOCKET: '' },
      },
    );
    expect(stop.code).toBe(2);
    const ask = await runCli(['claude-code', '--config', settings(dir, 'ask.json', ASK), '--root', dir], {
      stdin: JSON.stringify(bash),
      env: { ...process.env, HOOKWARDEN_SOCKET: '' },
    });
    expect(JSON.parse(ask.stdout).hookSpecificOutput.permissionDecision).toBe('ask');
  });

  it('hookwarden cursor --config .claude/settings.json: the Claude Code hook blocks the shell call', async () => {
    const dir = tempDir();
    const file = settings(dir, '.claude/settings.json', STOP);
    const input = { ...recorded('cursor').beforeShellExecution, command: 'ls' };
    const r = await adapter('cursor', 'beforeShellExecution', input, ['--config', file, '--root', dir]);
    expect(JSON.parse(r.stdout).permission).toBe('deny');
  });

  it("Claude Code's Interrupt is an event: its hooks run on the source, and the answer is nothing", async () => {
    const dir = tempDir();
    const seen = `${dir}/seen`;
    const file = writeConfig(dir, '.claude/settings.json', {
      hooks: {
        Interrupt: [{ matcher: 'session', hooks: [{ type: 'command', command: `cat > '${seen}'; exit 2` }] }],
      },
    });
    const input = {
      session_id: 's',
      cwd: dir,
      hook_event_name: 'Interrupt',
      source: 'session',
      reason: 'stop',
    };
    const r = await runCli(['claude-code', '--config', file, '--root', dir], {
      stdin: JSON.stringify(input),
      env: { ...process.env, HOOKWARDEN_SOCKET: '' },
    });
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(JSON.parse(readFileSync(seen, 'utf8')).source).toBe('session');
  });
});

describe("a policy's MCP guard, through each agent's adapter", () => {
  const dir = tempDir();
  const policy = writeConfig(dir, 'policy.json', {
    hooks: {
      BeforeTool: [
        {
          matcher: 'mcp__github__.*',
          hooks: [
            { type: 'js', code: "export default () => ({ decision: 'deny', reason: 'no github writes' })" },
          ],
        },
      ],
    },
  });
  const empty = writeConfig(dir, 'empty.json', { hooks: {} });

  it.each([
    ['cursor', 'beforeMCPExecution', { tool_name: 'create_issue', tool_input: '{}' }, 'permission'],
    ['cursor', 'preToolUse', { tool_name: 'MCP:create_issue', tool_input: {} }, 'permission'],
    ['copilot', 'preToolUse', { toolName: 'github-create_issue', toolArgs: '{}' }, 'permissionDecision'],
  ] as const)('%s %s: denied', async (agent, event, extra, field) => {
    const input = { ...recorded(agent)[event], ...extra };
    const r = await adapter(agent, event, input, ['--config', empty, '--policy', policy, '--root', dir]);
    expect(JSON.parse(r.stdout)[field]).toBe('deny');
  });
});
