// Claude Code's hook behaviour as one table of data (issue 24, item 13; issue 38: 2.1.337), read from
// @anthropic-ai/claude-agent-sdk 0.3.337 (`sdk.d.ts`: HOOK_EVENTS, every *HookInput and
// *HookSpecificOutput, McpServerProvenance) and the Claude Code 2.1.337 CLI it ships (the per-event
// help text of its hooks menu, the answer reader that switches on hookSpecificOutput.hookEventName,
// the matchQuery each event passes, its legacy tool-name table, its permission-rule matchers). A new
// release is a diff of REFERENCE; test/claude-code-reference.test.ts checks every row against
// hookwarden.
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * What an exit 2 means to Claude Code at an event: `block` (what was to happen does not), `keepWorking`
 * (stderr to the model, the turn or the teammate goes on), `feedback` (stderr to the model, nothing
 * blocked), `shownToUser` (stderr to the user only: the event cannot be blocked), `ignored`.
 */
export type Exit2 = 'block' | 'keepWorking' | 'feedback' | 'shownToUser' | 'ignored';
/**
 * What a hookSpecificOutput field Claude Code reads becomes: `passed` on (its value, or its effect),
 * `blocks` (any value keeps the action from happening), or `ignored` (not supported: listed in the
 * record's ignoredFields).
 */
export type Field = 'passed' | 'blocks' | 'ignored';

export interface EventRow {
  readonly exit2: Exit2;
  /** The input field Claude Code's matcher is tested against (snake_case, as sent); none: no matcher. */
  readonly matcher?: string;
  /** The hookSpecificOutput fields Claude Code reads at this event, and what hookwarden does with each. */
  readonly output: Readonly<Record<string, Field>>;
  /** The event's input besides BaseHookInput (sdk.d.ts). */
  readonly input: Readonly<Record<string, unknown>>;
}

const TOOL = { tool_name: 'Bash', tool_input: { command: 'git push' }, tool_use_id: 'toolu_01' };

export const REFERENCE = {
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
