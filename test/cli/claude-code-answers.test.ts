// The answers Claude Code reads per event (issue 24, items 5 and 6), through `hookwarden claude-code`
// as Claude Code runs it: the exact stdin JSON of 2.1.333 for each event, a real hook process, and
// the adapter's exit code, stdout and stderr as Claude Code would read them.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';

const dir = tempDir();
const project = tempDir();

/** The fields every Claude Code hook input carries (sdk.d.ts BaseHookInput). */
const base = (event: string) => ({
  session_id: 'c0ffee00-1111-2222-3333-444455556666',
  transcript_path: join(project, '.claude', 'transcript.jsonl'),
  cwd: project,
  permission_mode: 'default',
  hook_event_name: event,
});

const TOOL_CALL = { tool_name: 'Bash', tool_input: { command: 'git push' }, tool_use_id: 'toolu_01' };

/** Claude Code's stdin for each event used here (sdk.d.ts *HookInput). */
const INPUTS: Record<string, Record<string, unknown>> = {
  Stop: { ...base('Stop'), stop_hook_active: false, last_assistant_message: 'Done.' },
  SubagentStop: {
    ...base('SubagentStop'),
    stop_hook_active: false,
    agent_id: 'agent-1',
    agent_type: 'general-purpose',
    agent_transcript_path: join(project, 'agent.jsonl'),
    last_assistant_message: 'Done.',
  },
  Setup: { ...base('Setup'), trigger: 'init' },
  TeammateIdle: { ...base('TeammateIdle'), teammate_name: 'reviewer', team_name: 'core' },
  Elicitation: {
    ...base('Elicitation'),
    mcp_server_name: 'github',
    message: 'Which repository?',
    mode: 'form',
    requested_schema: { type: 'object', properties: { repo: { type: 'string' } } },
  },
  ElicitationResult: {
    ...base('ElicitationResult'),
    mcp_server_name: 'github',
    elicitation_id: 'e-1',
    mode: 'form',
    action: 'accept',
    content: { repo: 'x' },
  },
  PreCompact: { ...base('PreCompact'), trigger: 'manual', custom_instructions: '' },
  SessionStart: { ...base('SessionStart'), source: 'startup', model: 'claude-sonnet-4-5' },
  PermissionRequest: {
    ...base('PermissionRequest'),
    tool_name: 'Bash',
    tool_input: { command: 'git push', description: 'Push' },
    permission_suggestions: [],
  },
};

/** The adapter, with a settings.json whose `event` hook is the shell command `command`. */
async function answer(event: string, command: string) {
  const cfg = writeConfig(dir, `${event}-${Math.random().toString(36).slice(2)}.json`, {
    hooks: { [event]: [{ hooks: [{ type: 'command', command }] }] },
  });
  const r = await runCli(['claude-code', '-c', cfg], {
    stdin: JSON.stringify(INPUTS[event]),
    env: { ...process.env, CLAUDE_PROJECT_DIR: project },
  });
  return { code: r.code, stdout: r.stdout, json: parse(r.stdout), stderr: r.stderr };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const says = (o: unknown) => `echo '${JSON.stringify(o)}'`;

describe('answers Claude Code acts on, which the adapter passes on (item 6)', () => {
  it.each(['Stop', 'SubagentStop'])(
    '%s: hookSpecificOutput.additionalContext keeps Claude working (decision "block" with it as the reason)',
    async (event) => {
      const r = await answer(
        event,
        says({ hookSpecificOutput: { hookEventName: event, additionalContext: 'run the tests first' } }),
      );
      expect([r.code, r.json, r.stderr]).toEqual([
        0,
        { decision: 'block', reason: 'run the tests first' },
        '',
      ]);
    },
  );

  it('Setup: additionalContext reaches Claude', async () => {
    const r = await answer(
      'Setup',
      says({ hookSpecificOutput: { hookEventName: 'Setup', additionalContext: 'node 20 installed' } }),
    );
    expect([r.code, r.json]).toEqual([
      0,
      { hookSpecificOutput: { hookEventName: 'Setup', additionalContext: 'node 20 installed' } },
    ]);
  });

  it.each([
    ['exit 2', 'echo "the review is not done" >&2; exit 2'],
    ['decision "block"', says({ decision: 'block', reason: 'the review is not done' })],
  ])('TeammateIdle: %s keeps the teammate working (exit 2, the reason on stderr)', async (_what, command) => {
    const r = await answer('TeammateIdle', command);
    expect([r.code, r.stderr]).toEqual([2, 'the review is not done\n']);
  });

  it.each([
    ['Elicitation', {}, 'Elicitation denied by hook'],
    ['Elicitation', { reason: 'not that server' }, 'not that server'],
    ['ElicitationResult', {}, 'Elicitation result blocked by hook'],
  ])('%s: action "decline" %j is a block: exit 2, "%s"', async (event, extra, reason) => {
    const r = await answer(
      event,
      says({ ...extra, hookSpecificOutput: { hookEventName: event, action: 'decline' } }),
    );
    expect([r.code, r.stderr, r.json]).toEqual([2, `${reason}\n`, { decision: 'block', reason }]);
  });

  it('an Elicitation "accept" decides nothing (its content is Claude Code UI, listed as ignored)', async () => {
    const r = await answer(
      'Elicitation',
      says({
        hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept', content: { repo: 'x' } },
      }),
    );
    expect([r.code, r.stdout]).toEqual([0, '']);
  });

  it('PreCompact: plain stdout is custom compaction instructions, written back as plain stdout', async () => {
    const r = await answer('PreCompact', 'echo "Keep every decision about the API."');
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'Keep every decision about the API.\n', '']);
  });

  it.each(['SessionStart', 'Setup'])(
    '%s: exit 2 shows its stderr to the user (it cannot block)',
    async (event) => {
      const r = await answer(event, 'echo "the toolchain is missing" >&2; exit 2');
      expect(r.code).toBe(0);
      expect(r.json).toEqual({ systemMessage: 'the toolchain is missing' });
    },
  );
});

describe('a broken guard is shown to the user, as Claude Code shows a non-blocking error (item 9)', () => {
  it.each([
    [
      'exits 1',
      'echo "jq: command not found" >&2; exit 1',
      /failed \(nonzero_exit\): exited with code 1: jq: command not found/,
    ],
    [
      'cannot be started',
      '/no/such/guard.sh',
      /failed \(spawn_failed\): could not execute the hook \(exit 127\): .*no\/such\/guard\.sh/,
    ],
    ['runs past its timeout', 'exec sleep 30', /failed \(timeout\)/],
  ])(
    'a PreToolUse guard that %s: exit 1, its hook and why on stderr, the call not blocked',
    async (_what, command, why) => {
      const cfg = writeConfig(dir, `broken-${Math.random().toString(36).slice(2)}.json`, {
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, timeout: 1 }] }] },
      });
      const r = await runCli(['claude-code', '-c', cfg], {
        stdin: JSON.stringify({ ...base('PreToolUse'), ...TOOL_CALL }),
        env: { ...process.env, CLAUDE_PROJECT_DIR: project },
      });
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toMatch(new RegExp(`^hookwarden: hook ".*" ${why.source}`));
    },
  );

  it('beside an answer that needs its JSON, in systemMessage', async () => {
    const cfg = writeConfig(dir, 'broken-context.json', {
      hooks: {
        SessionStart: [
          {
            hooks: [
              {
                type: 'command',
                command: says({
                  hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' },
                }),
              },
              { type: 'command', command: 'echo "no such venv" >&2; exit 3' },
            ],
          },
        ],
      },
    });
    const r = await runCli(['claude-code', '-c', cfg], {
      stdin: JSON.stringify(INPUTS.SessionStart),
      env: { ...process.env, CLAUDE_PROJECT_DIR: project },
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      systemMessage: expect.stringMatching(
        /^hookwarden: hook ".*" failed \(nonzero_exit\): exited with code 3: no such venv$/,
      ),
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' },
    });
  });
});

describe('an interpreter that cannot find its script exits 2: Claude Code reads it as a missing script', () => {
  it.each(['Stop', 'SubagentStop', 'TeammateIdle'])(
    '%s: a broken hook shown to the user (exit 1), not "keep working" forever',
    async (event) => {
      const r = await answer(
        event,
        `echo "python3: can't open file '/gone/guard.py': [Errno 2] No such file or directory" >&2; exit 2`,
      );
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /hook ".*" failed \(spawn_failed\): the hook script appears to be missing: it exited 2 with: python3: can't open file/,
      );
    },
  );

  it('an exit 2 that prints something on Stop still keeps Claude working', async () => {
    const r = await answer('Stop', 'echo "no such file as dist/ yet: build first" >&2; echo partial; exit 2');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.json).toEqual({ decision: 'block', reason: 'no such file as dist/ yet: build first' });
  });
});

describe('PermissionRequest reads only hookSpecificOutput.decision (item 5)', () => {
  it('PreToolUse\'s permissionDecision "allow" approves nothing, and the user is told why', async () => {
    const r = await answer(
      'PermissionRequest',
      says({
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          permissionDecision: 'allow',
          permissionDecisionReason: 'trusted',
        },
      }),
    );
    expect(r.code).toBe(0);
    const out = r.json as { hookSpecificOutput?: unknown; systemMessage: string };
    expect(out.hookSpecificOutput).toBeUndefined();
    expect(out.systemMessage).toMatch(
      /^hookwarden: hook ".*": PermissionRequest reads only hookSpecificOutput\.decision .*permissionDecision \(PreToolUse's field\) was not applied, so the request is not approved$/,
    );
  });

  it.each(['ask', 'defer'])('permissionDecision "%s" is ignored there too', async (decision) => {
    const r = await answer(
      'PermissionRequest',
      says({ hookSpecificOutput: { hookEventName: 'PermissionRequest', permissionDecision: decision } }),
    );
    expect((r.json as { hookSpecificOutput?: unknown }).hookSpecificOutput).toBeUndefined();
  });

  it('its decision {behavior: "allow"} approves; a permissionDecision "deny" still denies (a guard is not weakened)', async () => {
    const allow = await answer(
      'PermissionRequest',
      says({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } }),
    );
    expect(allow.json).toEqual({
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
    });
    const deny = await answer(
      'PermissionRequest',
      says({
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          permissionDecision: 'deny',
          permissionDecisionReason: 'not on main',
        },
      }),
    );
    expect([deny.code, deny.json]).toEqual([
      0,
      {
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          decision: { behavior: 'deny', message: 'not on main' },
        },
      },
    ]);
  });
});
