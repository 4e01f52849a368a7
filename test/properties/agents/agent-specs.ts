// Each agent as the invariant-7 properties set it up: its oracle, where its hooks file lives and what
// it holds (hook groups with the agent's own matchers, each one command hook whose answer the case
// writes), its own hook input for a call, the adapter that speaks its protocol, and the rows where
// hookwarden is knowingly stricter than the agent (docs/agents.md lists each one).
import { readFileSync } from 'node:fs';
import { agentAdapter } from '../../../src/cli/adapter/agent-spec.js';
import type { AdapterSpec } from '../../../src/cli/adapter/spec.js';
import { CLAUDE_CODE_ADAPTER } from '../../../src/cli/claude-code/answer-io.js';
import type { Agent, AgentCall } from './calls.js';
import { CLAUDE_CODE } from './claude-code-oracle.js';
import { CODEX } from './codex-oracle.js';
import { COPILOT } from './copilot-oracle.js';
import { CURSOR } from './cursor-oracle.js';
import { GEMINI } from './gemini-oracle.js';
import type { Oracle } from './oracle.js';

type Obj = Record<string, unknown>;

/** A hook group of the agent's file: its matcher, and (Cursor) whether it fails closed. */
interface Group {
  readonly matcher?: string | undefined;
  readonly failClosed?: boolean | undefined;
}

export interface AgentSpec {
  readonly agent: Agent;
  readonly oracle: Oracle;
  /** The hooks file, relative to the project (the agent's own folder). */
  readonly place: string;
  /** The groups of each event the cases fire. */
  readonly groups: Readonly<Record<string, readonly Group[]>>;
  /** The hooks file: `command(event, i)` is the command of group i of the event. */
  file(command: (event: string, i: number) => string): Obj;
  /** The agent's own input for a call (`event` may be corrupted: a name the agent does not send). */
  input(call: AgentCall, event: string, cwd: string): Obj;
  readonly adapter: AdapterSpec;
  /** Extra adapter flags (Copilot's inputs do not name their event). */
  flags(event: string): string[];
  /**
   * The reasons (oracle `why`s, or the rig's own: `matcher`, `unplaced`, `conflict`) for which
   * hookwarden may answer more strictly than the agent: each is a row of docs/agents.md.
   */
  readonly stricter: readonly string[];
}

const fixture = (agent: string): Record<string, Obj> =>
  JSON.parse(readFileSync(new URL(`../../fixtures/agents/${agent}.json`, import.meta.url), 'utf8'));

/** Claude Code's nested groups under the event names (Claude Code's, Codex's and Gemini's files). */
function nested(
  groups: Readonly<Record<string, readonly Group[]>>,
  command: (e: string, i: number) => string,
): Obj {
  return {
    hooks: Object.fromEntries(
      Object.entries(groups).map(([event, gs]) => [
        event,
        gs.map((g, i) => ({
          ...(g.matcher === undefined ? {} : { matcher: g.matcher }),
          hooks: [{ type: 'command', command: command(event, i) }],
        })),
      ]),
    ),
  };
}

const claudeBase = (cwd: string) => ({
  session_id: 'prop-session',
  transcript_path: `${cwd}/t.jsonl`,
  cwd,
  permission_mode: 'default',
  tool_use_id: 'toolu_prop',
});

/** Matchers of Claude Code's and Codex's files: names, lists, regexes, one with a dash. */
const CLAUDE_GROUPS: readonly Group[] = [
  {},
  { matcher: 'Bash' },
  { matcher: 'mcp__github__.*' },
  { matcher: 'Read,Write' },
  { matcher: 'my-db' },
];

export const SPECS: Readonly<Record<Agent, AgentSpec>> = {
  'claude-code': {
    agent: 'claude-code',
    oracle: CLAUDE_CODE,
    place: '.claude/settings.json',
    groups: { PreToolUse: CLAUDE_GROUPS },
    file: (command) => nested({ PreToolUse: CLAUDE_GROUPS }, command),
    input: (call, event, cwd) => ({ ...claudeBase(cwd), hook_event_name: event, ...call.fields }),
    adapter: CLAUDE_CODE_ADAPTER,
    flags: () => [],
    stricter: ['invalid-json', 'event-mismatch', 'matcher', 'unplaced', 'conflict'],
  },
  codex: {
    agent: 'codex',
    oracle: CODEX,
    place: '.codex/hooks.json',
    groups: { PreToolUse: CLAUDE_GROUPS },
    file: (command) => nested({ PreToolUse: CLAUDE_GROUPS }, command),
    input: (call, event, cwd) => ({
      ...fixture('codex').PreToolUse,
      cwd,
      hook_event_name: event,
      ...call.fields,
    }),
    adapter: agentAdapter('codex'),
    flags: () => [],
    stricter: ['exit2-no-stderr', 'unsupported', 'invalid-json', 'matcher', 'unplaced', 'conflict'],
  },
  gemini: {
    agent: 'gemini',
    oracle: GEMINI,
    place: '.gemini/settings.json',
    groups: {
      BeforeTool: [
        {},
        { matcher: 'run_shell_command' },
        { matcher: 'mcp_github_.*' },
        { matcher: 'read_file|write_file' },
      ],
    },
    file(command) {
      return nested(this.groups, command);
    },
    input: (call, event, cwd) => {
      const { tool_input: _, ...base } = fixture('gemini').BeforeTool!;
      return { ...base, cwd, hook_event_name: event, ...call.fields };
    },
    adapter: agentAdapter('gemini'),
    flags: () => [],
    stricter: ['exit2-not-a-deny', 'matcher', 'unplaced', 'conflict'],
  },
  cursor: {
    agent: 'cursor',
    oracle: CURSOR,
    place: '.cursor/hooks.json',
    groups: {
      preToolUse: [
        {},
        { matcher: 'Shell' },
        { matcher: 'MCP:create_issue', failClosed: true },
        { matcher: 'Read|Write' },
      ],
      beforeShellExecution: [{}, { matcher: 'rm', failClosed: true }],
      beforeMCPExecution: [{}, { matcher: 'create_issue' }],
      beforeReadFile: [{ failClosed: true }],
    },
    file(command) {
      return {
        version: 1,
        hooks: Object.fromEntries(
          Object.entries(this.groups).map(([event, gs]) => [
            event,
            gs.map((g, i) => ({
              command: command(event, i),
              ...(g.matcher === undefined ? {} : { matcher: g.matcher }),
              ...(g.failClosed === true ? { failClosed: true } : {}),
            })),
          ]),
        ),
      };
    },
    input: (call, event, cwd) => {
      const base = fixture('cursor')[call.event] ?? fixture('cursor').preToolUse!;
      const { tool_name: _n, tool_input: _i, command: _c, file_path: _f, ...rest } = base;
      return { ...rest, workspace_roots: [cwd], hook_event_name: event, ...call.fields };
    },
    adapter: agentAdapter('cursor'),
    flags: () => [],
    stricter: ['ask-not-enforced', 'continue-on-a-gate', 'malformed', 'matcher', 'unplaced', 'conflict'],
  },
  copilot: {
    agent: 'copilot',
    oracle: COPILOT,
    place: '.github/hooks/guard.json',
    groups: { preToolUse: [{}, { matcher: 'bash' }, { matcher: 'github-.*' }, { matcher: 'view|create' }] },
    file(command) {
      return {
        version: 1,
        hooks: {
          preToolUse: this.groups.preToolUse!.map((g, i) =>
            g.matcher === undefined
              ? { type: 'command', bash: command('preToolUse', i) }
              : { matcher: g.matcher, hooks: [{ type: 'command', bash: command('preToolUse', i) }] },
          ),
        },
      };
    },
    input: (call, event, cwd) => ({
      ...fixture('copilot').preToolUse,
      sessionId: 'prop-session',
      cwd,
      ...(event === call.event ? {} : { hookEventName: event }),
      ...call.fields,
    }),
    adapter: agentAdapter('copilot'),
    flags: (event) => ['--event', event],
    stricter: ['decision-block', 'matcher', 'unplaced', 'conflict'],
  },
};
