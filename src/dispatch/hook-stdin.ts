// The input as a hook reads it: a command hook on stdin, an http hook as its request body, an
// evaluator as `inputJson`. A hook registered under a Claude Code event name also gets Claude
// Code's snake_case fields, so a hook written for Claude Code reads what it expects.
import { withSnakeCaseNames } from '../contract/input-names.js';
import type { HookInput } from '../contract/types.js';

/** The input JSON for a hook registered under `claudeEvent` (undefined: hookwarden's form, as is). */
export function hookInputJson(claudeEvent: string | undefined, input: HookInput, inputJson: string): string {
  if (claudeEvent === undefined) return inputJson;
  return JSON.stringify({
    ...withSnakeCaseNames(input as Record<string, unknown>),
    hook_event_name: claudeEvent,
  });
}
