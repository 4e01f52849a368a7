// The input as a hook reads it: a command hook on stdin, an http hook as its request body, an
// evaluator as `inputJson`. A hook registered under a Claude Code event name also gets Claude
// Code's snake_case fields, so a hook written for Claude Code reads what it expects.
import type { HookInput } from '../contract/types.js';

/** The input JSON for a hook registered under `claudeEvent` (undefined: hookwarden's form, as is). */
export function hookInputJson(claudeEvent: string | undefined, input: HookInput, inputJson: string): string {
  if (claudeEvent === undefined) return inputJson;
  const mirror: Record<string, unknown> = {
    session_id: input.sessionId,
    cwd: input.cwd,
    hook_event_name: claudeEvent,
  };
  if (input.toolName !== undefined) mirror.tool_name = input.toolName;
  if (input.toolInput !== undefined) mirror.tool_input = input.toolInput;
  if (input.toolResult !== undefined) mirror.tool_response = input.toolResult;
  return JSON.stringify({ ...input, ...mirror });
}
