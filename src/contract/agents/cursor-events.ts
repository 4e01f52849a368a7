// Cursor's hook events (cursor.ts): what each maps onto in hookwarden's catalogue, which are gates
// (their answer is a `permission`), and where Cursor enforces an `ask`. Dependency-free.
import type { AgentEvent } from './protocol.js';

/** The gates: events whose answer is a `permission`. */
export const PERMISSION: ReadonlySet<string> = new Set([
  'preToolUse',
  'beforeShellExecution',
  'beforeMCPExecution',
  'beforeReadFile',
  'beforeTabFileRead',
  'subagentStart',
]);
/** Gates where Cursor enforces `ask` (elsewhere it takes allow/deny only). */
export const ASKS: ReadonlySet<string> = new Set(['beforeShellExecution', 'beforeMCPExecution']);

const gate = (dispatch: string, tool?: string, left?: string): AgentEvent => ({
  dispatch,
  canBlock: true,
  ...(tool === undefined ? {} : { tool }),
  ...(left === undefined ? {} : { left }),
});
export const observe = (dispatch: string, tool?: string): AgentEvent => ({
  dispatch,
  canBlock: false,
  ...(tool === undefined ? {} : { tool }),
});

export const EVENTS: Readonly<Record<string, AgentEvent>> = Object.freeze({
  sessionStart: observe('SessionStart'),
  sessionEnd: observe('SessionEnd'),
  preToolUse: gate('BeforeTool'),
  postToolUse: observe('PostToolUse'),
  postToolUseFailure: observe('PostToolUseFailure'),
  beforeShellExecution: gate('BeforeTool', 'Bash'),
  afterShellExecution: observe('PostToolUse', 'Bash'),
  beforeMCPExecution: gate('BeforeTool', 'mcp'),
  afterMCPExecution: observe('PostToolUse', 'mcp'),
  beforeReadFile: gate('BeforeTool', 'Read'),
  beforeTabFileRead: gate('BeforeTool', 'Read'),
  afterFileEdit: observe('PostToolUse', 'Write'),
  afterTabFileEdit: observe('PostToolUse', 'Write'),
  beforeSubmitPrompt: gate('BeforeTurn'),
  preCompact: observe('PreCompact'),
  stop: observe('Stop'),
  // Cursor lets a subagentStart hook deny; hookwarden's BeforeSubagent (Claude Code's SubagentStart)
  // takes no deny, so its hooks stay with Cursor.
  subagentStart: gate(
    'SubagentStart',
    undefined,
    "its hooks may deny a subagent's start, which hookwarden's SubagentStart (BeforeSubagent) does not take",
  ),
  subagentStop: observe('SubagentStop'),
  afterAgentResponse: observe('AfterModel'),
  afterAgentThought: observe('AfterModel'),
  workspaceOpen: {
    dispatch: 'workspaceOpen',
    canBlock: false,
    left: 'hookwarden has no workspaceOpen event (its hooks answer with plugin paths)',
  },
});
