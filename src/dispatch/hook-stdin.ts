// The input as a hook reads it: a command hook on stdin, an http hook as its request body, an
// evaluator as `inputJson`. A hook registered under a Claude Code event name also gets Claude
// Code's snake_case fields, so a hook written for Claude Code reads what it expects; a hook of a
// coding agent's file reads that agent's input for the event it was registered under (Cursor's
// `command` on beforeShellExecution, Copilot's `toolArgs` string), rendered from the dispatch input.
import { AGENTS, isAgent } from '../contract/agents/index.js';
import type { Dialect } from '../contract/dialects.js';
import { withSnakeCaseNames } from '../contract/input-names.js';
import type { HookInput } from '../contract/types.js';

/** Whose input a hook reads: its file's dialect and, for an agent's file, the agent's event. */
export interface InputView {
  readonly dialect: Dialect;
  readonly agentEvent?: string | undefined;
}

/** The input JSON for a hook registered under `claudeEvent` (undefined: hookwarden's form, as is). */
export function hookInputJson(
  claudeEvent: string | undefined,
  input: HookInput,
  inputJson: string,
  view?: InputView,
): string {
  if (view?.agentEvent !== undefined && isAgent(view.dialect))
    return JSON.stringify(AGENTS[view.dialect].renderInput(view.agentEvent, input));
  if (claudeEvent === undefined) return inputJson;
  return JSON.stringify({
    ...withSnakeCaseNames(input as Record<string, unknown>),
    hook_event_name: claudeEvent,
  });
}
