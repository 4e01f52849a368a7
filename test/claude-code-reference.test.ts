// Claude Code's hook behaviour as one table of data (issue 24, item 13), read from
// @anthropic-ai/claude-agent-sdk 0.3.337 (`sdk.d.ts`: HOOK_EVENTS, every *HookInput and
// *HookSpecificOutput, McpServerProvenance) and the Claude Code 2.1.337 CLI it ships (the per-event
// help text of its hooks
// menu, the answer reader that switches on hookSpecificOutput.hookEventName, the matchQuery each
// event passes, its legacy tool-name table, its permission-rule matchers). A new release is a diff of
// REFERENCE; every row is checked against hookwarden: a real command hook run through the dispatcher,
// its result mapped as `hookwarden claude-code` maps it, and that answer read back by Claude Code's
// rules (`claudeCodeReads` below). Where hookwarden differs on purpose, KEPT says so and why (the same
// rows are in docs/claude-code.md's differences table).
import { writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClaudeCodeAnswer, toClaudeCodeAnswer } from '../src/contract/claude-code-answer.js';
import { CLAUDE_CODE_EVENT_NAMES } from '../src/contract/events.js';
import type { DispatchResult } from '../src/contract/result.js';
import { createExecutor, type Executor } from '../src/index.js';
import { IfFilter } from '../src/registry/if-filter.js';
import { CLAUDE_CODE_TOOL_ALIASES } from '../src/registry/tool-aliases.js';
import { tempDir, writeConfig } from './helpers/fixture.js';

/**
 * What an exit 2 means to Claude Code at an event: `block` (what was to happen does not), `keepWorking`
 * (stderr to the model, the turn or the teammate goes on), `feedback` (stderr to the model, nothing
 * blocked), `shownToUser` (stderr to the user only: the event cannot be blocked), `ignored`.
 */
type Exit2 = 'block' | 'keepWorking' | 'feedback' | 'shownToUser' | 'ignored';
/**
 * What a hookSpecificOutput field Claude Code reads becomes: `passed` on (its value, or its effect),
 * `blocks` (any value keeps the action from happening), or `ignored` (not supported: listed in the
 * record's ignoredFields).
 */
type Field = 'passed' | 'blocks' | 'ignored';

interface EventRow {
  readonly exit2: Exit2;
  /** The input field Claude Code's matcher is tested against (snake_case, as sent); none: no matcher. */
  readonly matcher?: string;
  /** The hookSpecificOutput fields Claude Code reads at this event, and what hookwarden does with each. */
  readonly output: Readonly<Record<string, Field>>;
  /** The event's input besides BaseHookInput (sdk.d.ts). */
  readonly input: Readonly<Record<string, unknown>>;
}

const TOOL = { tool_name: 'Bash', tool_input: { command: 'git push' }, tool_use_id: 'toolu_01' };

const REFERENCE = {
  claudeCode: '2.1.337',
  sdk: '0.3.337',
  events: {
    PreToolUse: {
      exit2: 'block',
      matcher: 'tool_name',
      output: {
        permissionDecision: 'passed',
        permissionDecisionReason: 'passed',
        updatedInput: 'passed',
        additionalContext: 'passed',
      },
      input: TOOL,
    },
    PostToolUse: {
      exit2: 'feedback',
      matcher: 'tool_name',
      output: {
        additionalContext: 'passed',
        updatedToolOutput: 'passed',
        updatedMCPToolOutput: 'passed',
        classifierContext: 'ignored',
      },
      input: { ...TOOL, tool_response: { stdout: 'ok' } },
    },
    PostToolUseFailure: {
      exit2: 'feedback',
      matcher: 'tool_name',
      output: { additionalContext: 'passed' },
      input: { ...TOOL, error: 'exit 1', is_interrupt: false },
    },
    PostToolBatch: {
      exit2: 'block',
      output: { additionalContext: 'passed' },
      input: { tool_calls: [{ ...TOOL, tool_response: 'ok' }] },
    },
    // sdk.d.ts types an additionalContext here, but 2.1.337's reader has no Notification case.
    Notification: {
      exit2: 'shownToUser',
      matcher: 'notification_type',
      output: {},
      input: { message: 'hi', notification_type: 'idle_prompt' },
    },
    UserPromptSubmit: {
      exit2: 'block',
      output: { additionalContext: 'passed', sessionTitle: 'ignored', suppressOriginalPrompt: 'ignored' },
      input: { prompt: 'fix it' },
    },
    UserPromptExpansion: {
      exit2: 'block',
      matcher: 'command_name',
      output: { additionalContext: 'passed', suppressOriginalPrompt: 'ignored' },
      input: { expansion_type: 'slash_command', command_name: 'review', command_args: '', prompt: '/review' },
    },
    SessionStart: {
      exit2: 'shownToUser',
      matcher: 'source',
      output: {
        additionalContext: 'passed',
        initialUserMessage: 'ignored',
        sessionTitle: 'ignored',
        watchPaths: 'ignored',
        reloadSkills: 'ignored',
      },
      input: { source: 'startup', model: 'claude-sonnet-4-5' },
    },
    SessionEnd: { exit2: 'shownToUser', matcher: 'reason', output: {}, input: { reason: 'clear' } },
    Stop: {
      exit2: 'keepWorking',
      output: { additionalContext: 'passed' },
      input: { stop_hook_active: false },
    },
    StopFailure: { exit2: 'ignored', matcher: 'error', output: {}, input: { error: 'rate_limit' } },
    // 2.1.335: "Hook output and exit codes are ignored"; its matchQuery is `source`.
    Interrupt: {
      exit2: 'ignored',
      matcher: 'source',
      output: {},
      input: { source: 'user', reason: 'stop', via: 'terminal' },
    },
    SubagentStart: {
      exit2: 'shownToUser',
      matcher: 'agent_type',
      output: { additionalContext: 'passed' },
      input: { agent_id: 'a1', agent_type: 'Explore' },
    },
    SubagentStop: {
      exit2: 'keepWorking',
      matcher: 'agent_type',
      output: { additionalContext: 'passed' },
      input: {
        stop_hook_active: false,
        agent_id: 'a1',
        agent_type: 'Explore',
        agent_transcript_path: '/tmp/a.jsonl',
      },
    },
    PreCompact: {
      exit2: 'block',
      matcher: 'trigger',
      output: {},
      input: { trigger: 'manual', custom_instructions: null },
    },
    PostCompact: {
      exit2: 'shownToUser',
      matcher: 'trigger',
      output: {},
      input: { trigger: 'auto', compact_summary: 's' },
    },
    PreModelSwitch: {
      exit2: 'block',
      matcher: 'to_model',
      output: { permissionDecision: 'passed', permissionDecisionReason: 'passed' },
      input: {
        from_model: 'claude-sonnet-4-5',
        to_model: 'claude-opus-4-1',
        requested_model: 'opus',
        source: 'slash_command',
      },
    },
    PostModelSwitch: {
      exit2: 'shownToUser',
      matcher: 'to_model',
      output: { additionalContext: 'passed' },
      input: {
        from_model: 'claude-sonnet-4-5',
        to_model: 'claude-opus-4-1',
        requested_model: 'opus',
        source: 'slash_command',
      },
    },
    PermissionRequest: {
      exit2: 'shownToUser',
      matcher: 'tool_name',
      output: { decision: 'passed' },
      input: { tool_name: 'Bash', tool_input: { command: 'git push' }, permission_suggestions: [] },
    },
    PermissionDenied: {
      exit2: 'shownToUser',
      matcher: 'tool_name',
      output: { retry: 'ignored' },
      input: { ...TOOL, reason: 'auto mode' },
    },
    Setup: {
      exit2: 'shownToUser',
      matcher: 'trigger',
      output: { additionalContext: 'passed' },
      input: { trigger: 'init' },
    },
    TeammateIdle: {
      exit2: 'keepWorking',
      output: {},
      input: { teammate_name: 'reviewer', team_name: 'core' },
    },
    TaskCreated: { exit2: 'block', output: {}, input: { task_id: 't1', task_subject: 'x' } },
    TaskCompleted: { exit2: 'block', output: {}, input: { task_id: 't1', task_subject: 'x' } },
    Elicitation: {
      exit2: 'block',
      matcher: 'mcp_server_name',
      output: { action: 'passed', content: 'ignored' },
      input: { mcp_server_name: 'github', message: 'Which repo?', mode: 'form', requested_schema: {} },
    },
    ElicitationResult: {
      exit2: 'block',
      matcher: 'mcp_server_name',
      output: { action: 'passed', content: 'ignored' },
      input: { mcp_server_name: 'github', action: 'accept', content: {}, mode: 'form' },
    },
    ConfigChange: {
      exit2: 'block',
      matcher: 'source',
      output: {},
      input: { source: 'project_settings', file_path: '/p/s.json' },
    },
    WorktreeCreate: { exit2: 'block', output: { worktreePath: 'ignored' }, input: { name: 'feature' } },
    WorktreeRemove: { exit2: 'shownToUser', output: {}, input: { worktree_path: '/tmp/wt' } },
    InstructionsLoaded: {
      exit2: 'shownToUser',
      matcher: 'load_reason',
      output: {},
      input: { file_path: '/p/CLAUDE.md', memory_type: 'Project', load_reason: 'session_start' },
    },
    CwdChanged: {
      exit2: 'shownToUser',
      output: { watchPaths: 'ignored' },
      input: { old_cwd: '/a', new_cwd: '/b' },
    },
    // The matcher names files (".envrc|.env"): it is tested against the changed file's name.
    FileChanged: {
      exit2: 'shownToUser',
      matcher: 'file_path',
      output: { watchPaths: 'ignored' },
      input: { file_path: '/p/.envrc', event: 'change' },
    },
    DirectoryAdded: {
      exit2: 'ignored',
      matcher: 'source',
      output: {},
      input: { directory: '/p/lib', source: 'slash_command' },
    },
    MessageDisplay: {
      exit2: 'ignored',
      output: { displayContent: 'ignored' },
      input: { turn_id: 't', message_id: 'm', index: 0, final: true, delta: 'hello' },
    },
    PreSkillShellCommand: {
      exit2: 'block',
      matcher: 'tool_name',
      // "deny, ask and defer all keep it from running"; updatedInput is "never applied: any value keeps the command from running".
      output: { permissionDecision: 'blocks', updatedInput: 'blocks' },
      input: {
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_use_id: 'toolu_02',
        command_name: 'deploy',
      },
    },
  } satisfies Record<string, EventRow>,
  /** Legacy tool name → current name (2.1.337's `Task: "Agent"` table): a matcher naming either matches both. */
  toolAliases: {
    Task: 'Agent',
    KillShell: 'TaskStop',
    KillBash: 'TaskStop',
    ListPeers: 'ListAgents',
    Brief: 'SendUserMessage',
    ListMcpResources: 'ListMcpResourcesTool',
    ReadMcpResource: 'ReadMcpResourceTool',
    ReadMcpResourceDir: 'ReadMcpResourceDirTool',
    ProposeGoal: 'SetGoal',
  },
  /** Permission-rule forms `if` takes: [rule, tool_input, cwd, matches] (the settings file in /proj/.claude). */
  ruleForms: [
    ['Bash(git push*)', { command: 'git push --force' }, '/proj', true],
    ['Bash(git push*)', { command: 'cd repo && git push' }, '/proj', true],
    ['Bash(git push*)', { command: 'git status; git push' }, '/proj', true],
    ['Bash(git push*)', { command: 'FOO=1 git push' }, '/proj', true],
    ['Bash(git push*)', { command: 'git status\ngit push' }, '/proj', true],
    ['Bash(git push*)', { command: 'make || git push' }, '/proj', true],
    ['Bash(git push*)', { command: 'git pull' }, '/proj', false],
    ['Bash(rm -rf *)', { command: 'ls && rm -rf build' }, '/proj', true],
    ['Bash(npm run test:*)', { command: 'npm run test -- -w' }, '/proj', true],
    ['Bash(npm run test:*)', { command: 'npm run tests' }, '/proj', false],
    ['Bash(git push)', { command: 'git push --force' }, '/proj', false],
    ['Read(./.env)', { file_path: '/proj/.env' }, '/proj', true],
    ['Read(.env)', { file_path: '/proj/sub/.env' }, '/proj', true],
    ['Read(.env)', { file_path: '/proj/.envrc' }, '/proj', false],
    ['Edit(src/**)', { file_path: '/proj/src/a/b.ts' }, '/proj', true],
    ['Edit(src/**)', { file_path: '/proj/lib/src/a.ts' }, '/proj', false],
    ['Write(//etc/**)', { file_path: '/etc/passwd' }, '/proj', true],
    ['Edit(/docs/**)', { file_path: '/proj/.claude/docs/a.md' }, '/proj', true],
    ['Read(~/.ssh/**)', { file_path: join(homedir(), '.ssh', 'id_ed25519') }, '/proj', true],
  ] as const,
} as const;

type EventName = keyof typeof REFERENCE.events;
const EVENTS = Object.keys(REFERENCE.events) as EventName[];

/** hookwarden's differences from a row, on purpose: event → [what hookwarden does instead, why]. */
const KEPT: Partial<Record<EventName, { exit2: Exit2; why: string }>> = {
  PermissionRequest: {
    exit2: 'block',
    why: 'a block is a block in every dialect: a PermissionRequest guard exiting 2 denies rather than leaving the call to the dialog',
  },
};

/** What Claude Code 2.1.337 makes of the adapter's answer at `event`, by its own rules. */
function claudeCodeReads(event: EventName, a: ClaudeCodeAnswer): Exit2 | 'context' | 'nothing' {
  const row: EventRow = REFERENCE.events[event];
  if (a.exitCode === 2) return row.exit2;
  if (a.exitCode === 1) return row.exit2 === 'ignored' ? 'ignored' : 'shownToUser';
  if (a.stdout === '') return 'nothing';
  let out: Record<string, unknown>;
  try {
    out = JSON.parse(a.stdout) as Record<string, unknown>;
  } catch {
    return 'context'; // plain text (PreCompact's instructions)
  }
  const specific = (out.hookSpecificOutput ?? {}) as Record<string, unknown>;
  if (out.decision === 'block') return row.exit2;
  if (specific.permissionDecision === 'deny') return 'block';
  if ((specific.decision as { behavior?: string } | undefined)?.behavior === 'deny') return 'block';
  if (typeof out.systemMessage === 'string') return 'shownToUser';
  if (typeof specific.additionalContext === 'string')
    return row.exit2 === 'feedback' ? 'feedback' : 'context';
  return 'nothing';
}

const dir = tempDir();
const root = tempDir();
const files = { out: join(root, 'out'), err: join(root, 'err'), code: join(root, 'code') };
let hw: Executor;

/** One hook per event of the table, answering what the test wrote to out/err/code. */
beforeAll(async () => {
  const command = `cat "${files.out}"; cat "${files.err}" >&2; exit "$(cat "${files.code}")"`;
  const hooks = Object.fromEntries(EVENTS.map((e) => [e, [{ hooks: [{ type: 'command', command }] }]]));
  hw = await createExecutor({
    config: writeConfig(dir, 'settings.json', { hooks }),
    root,
    onWarning: () => {},
  });
});
afterAll(() => hw?.close());

/** Dispatches Claude Code's input for `event` to a hook answering `answer`; the adapter's answer. */
async function run(event: EventName, answer: { stdout?: string; stderr?: string; code?: number }) {
  writeFileSync(files.out, answer.stdout ?? '');
  writeFileSync(files.err, answer.stderr ?? '');
  writeFileSync(files.code, String(answer.code ?? 0));
  const input = {
    session_id: 's-ref',
    transcript_path: join(root, 't.jsonl'),
    cwd: root,
    permission_mode: 'default',
    hook_event_name: event,
    ...REFERENCE.events[event].input,
  };
  const result: DispatchResult = await hw.dispatch(event, input);
  return { result, answer: toClaudeCodeAnswer(event, result) };
}

describe(`Claude Code ${REFERENCE.claudeCode} (SDK ${REFERENCE.sdk}) as a table`, () => {
  it('covers every event of the reference, and hookwarden knows each by its name', () => {
    // sdk.d.ts HOOK_EVENTS, in its order.
    expect(EVENTS).toEqual(
      expect.arrayContaining([...CLAUDE_CODE_EVENT_NAMES].filter((n) => n !== 'TurnEnd')),
    );
    expect([...CLAUDE_CODE_EVENT_NAMES].filter((n) => n !== 'TurnEnd').sort()).toEqual([...EVENTS].sort());
  });

  it.each(EVENTS)('%s: an exit 2 means what it means to Claude Code', async (event) => {
    const { answer } = await run(event, { stderr: 'stopped by the hook', code: 2 });
    const expected = KEPT[event]?.exit2 ?? REFERENCE.events[event].exit2;
    const read = claudeCodeReads(event, answer);
    expect(read === 'nothing' ? 'ignored' : read).toBe(expected);
    // Whatever Claude Code shows (the model or the user), it is the hook's stderr.
    if (expected !== 'ignored') expect(`${answer.stdout}${answer.stderr}`).toContain('stopped by the hook');
  });

  const fields = EVENTS.flatMap((event) =>
    Object.entries(REFERENCE.events[event].output as Record<string, Field>).map(
      ([f, how]) => [event, f, how] as const,
    ),
  );
  /** A value Claude Code would act on, per field. */
  const SAMPLE: Record<string, unknown> = {
    permissionDecision: 'ask',
    permissionDecisionReason: 'check it',
    updatedInput: { command: 'git push --dry-run' },
    additionalContext: 'from the hook',
    updatedToolOutput: { stdout: 'redacted' },
    updatedMCPToolOutput: { stdout: 'redacted' },
    decision: { behavior: 'deny', message: 'not on main' },
    action: 'decline',
    worktreePath: '/tmp/wt',
  };
  it.each(fields)('%s: hookSpecificOutput.%s is %s', async (event, field, how) => {
    const value =
      SAMPLE[field] ??
      (field === 'watchPaths' ? ['/p/x'] : field === 'reloadSkills' || field === 'retry' ? true : 'x');
    const extra =
      (field === 'permissionDecisionReason' || field === 'updatedInput') && how === 'passed'
        ? { permissionDecision: 'allow' }
        : {};
    const hso = { hookEventName: event, ...extra, [field]: value };
    const { result, answer } = await run(event, { stdout: JSON.stringify({ hookSpecificOutput: hso }) });
    const ignored = result.hooks[0]?.ignoredFields ?? [];
    if (how === 'ignored') {
      expect(ignored).toContain(`hookSpecificOutput.${field}`);
      return;
    }
    expect(ignored).not.toContain(`hookSpecificOutput.${field}`);
    const out = JSON.parse(answer.stdout || '{}') as Record<string, unknown>;
    const written = JSON.stringify(out);
    // Passed on: the value reaches Claude Code in the field it reads, or as its effect.
    if (how === 'blocks') expect(claudeCodeReads(event, answer)).toBe('block');
    else if (field === 'additionalContext' && (event === 'Stop' || event === 'SubagentStop'))
      expect(out).toEqual({ decision: 'block', reason: 'from the hook' });
    else if (field === 'action') expect(claudeCodeReads(event, answer)).toBe('block');
    else if (field === 'updatedMCPToolOutput')
      expect((out.hookSpecificOutput as Record<string, unknown>).updatedToolOutput).toEqual(value);
    else expect(written).toContain(JSON.stringify(value));
  });

  it.each(EVENTS)('%s: the matcher tests the field Claude Code tests', async (event) => {
    const row: EventRow = REFERENCE.events[event];
    const fires = async (matcher: string) => {
      const cfg = writeConfig(dir, `m-${event}.json`, {
        hooks: { [event]: [{ matcher, hooks: [{ type: 'command', command: 'exit 0' }] }] },
      });
      const e = await createExecutor({ config: cfg, root, onWarning: () => {} });
      try {
        const input = {
          session_id: 's',
          transcript_path: '/t',
          cwd: root,
          hook_event_name: event,
          ...row.input,
        };
        return (await e.dispatch(event, input)).hooks.length === 1;
      } finally {
        await e.close();
      }
    };
    if (row.matcher === undefined) {
      // No matcher at this event: it is not tested, the hook runs.
      expect(await fires('nothing-matches-this')).toBe(true);
      return;
    }
    const value = String((row.input as Record<string, unknown>)[row.matcher]);
    const subject = event === 'FileChanged' ? value.split('/').pop()! : value;
    expect(await fires(subject)).toBe(true);
    expect(await fires(`${subject}|other`)).toBe(true);
    expect(await fires('nothing-matches-this')).toBe(false);
  });

  it.each(Object.entries(REFERENCE.toolAliases))(
    'a %s matcher matches %s calls, and the other way round',
    (legacy, current) => {
      expect(CLAUDE_CODE_TOOL_ALIASES[legacy]).toBe(current);
      expect(new IfFilter(legacy).matches(current, {})).toBe(true);
      expect(new IfFilter(current).matches(legacy, {})).toBe(true);
    },
  );

  it.each(REFERENCE.ruleForms)('if %s on %j (cwd %s): %s', (rule, input, cwd, matches) => {
    const tool = rule.slice(0, rule.indexOf('('));
    expect(new IfFilter(rule, { configDir: '/proj/.claude' }).matches(tool, input, undefined, cwd)).toBe(
      matches,
    );
  });
});
