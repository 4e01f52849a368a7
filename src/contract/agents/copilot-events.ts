// Copilot CLI's hook events (copilot.ts): what each maps onto in hookwarden's catalogue, camelCase
// and the VS Code-compatible PascalCase names. Dependency-free.
import type { AgentEvent } from './protocol.js';

const gate = (dispatch: string): AgentEvent => ({ dispatch, canBlock: true });
export const observe = (dispatch: string, left?: string): AgentEvent => ({
  dispatch,
  canBlock: false,
  ...(left === undefined ? {} : { left }),
});

/** Copilot CLI 1.0.102's hook events (its settings schema's `hooks.*`). */
const CAMEL_EVENTS: Readonly<Record<string, AgentEvent>> = {
  sessionStart: observe('SessionStart'),
  sessionEnd: observe('SessionEnd'),
  userPromptSubmitted: gate('BeforeTurn'),
  userPromptTransformed: observe(
    'userPromptTransformed',
    'its hooks rewrite the model-facing prompt (modifiedTransformedPrompt), which hookwarden has no event for',
  ),
  preToolUse: gate('BeforeTool'),
  permissionRequest: gate('PermissionRequest'),
  postToolUse: observe('AfterTool'),
  postToolUseFailure: observe('PostToolUseFailure'),
  preMcpToolCall: observe(
    'preMcpToolCall',
    "its hooks answer with an MCP request's metadata (metaToUse), which hookwarden has no field for",
  ),
  errorOccurred: observe('StopFailure'),
  agentStop: observe('Stop'),
  subagentStart: observe('SubagentStart'),
  subagentStop: observe('SubagentStop'),
  preCompact: observe('PreCompact'),
  notification: observe('Notification'),
};

/**
 * Copilot CLI's VS Code-compatible events (its hooks reference: an event named in PascalCase gets a
 * snake_case input, as VS Code's Copilot extension sends it), each with the camelCase event it is.
 */
export const COMPAT: Readonly<Record<string, string>> = Object.freeze({
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  UserPromptSubmit: 'userPromptSubmitted',
  PreToolUse: 'preToolUse',
  PermissionRequest: 'permissionRequest',
  PostToolUse: 'postToolUse',
  PostToolUseFailure: 'postToolUseFailure',
  PreMcpToolCall: 'preMcpToolCall',
  ErrorOccurred: 'errorOccurred',
  Stop: 'agentStop',
  SubagentStart: 'subagentStart',
  SubagentStop: 'subagentStop',
  PreCompact: 'preCompact',
});

/** The camelCase event a compatible event is (itself for the others). */
export const camelOf = (event: string): string => (Object.hasOwn(COMPAT, event) ? COMPAT[event]! : event);

const COMPAT_LEFT =
  'a VS Code-compatible event (PascalCase): hookwarden runs its hooks, but answers Copilot only for the camelCase events';

/** Copilot CLI 1.0.102's hook events (its settings schema's `hooks.*`), camelCase and compatible. */
export const EVENTS: Readonly<Record<string, AgentEvent>> = Object.freeze({
  ...CAMEL_EVENTS,
  ...Object.fromEntries(
    Object.entries(COMPAT).map(([pascal, camel]) => [
      pascal,
      { ...CAMEL_EVENTS[camel]!, left: CAMEL_EVENTS[camel]!.left ?? COMPAT_LEFT },
    ]),
  ),
});
