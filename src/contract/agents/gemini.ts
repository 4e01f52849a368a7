// Google Gemini CLI (@google/gemini-cli 0.61.0: its bundle's hookRunner, hookAggregator, hookPlanner
// and hookEventHandler, and the docs it ships, docs/hooks/reference.md). Hooks live in settings.json
// (`hooks`, user, project and system); the input is snake_case with an ISO `timestamp`; an answer is
// `{decision: "allow"|"deny"|"block"|"ask", reason, continue, stopReason, systemMessage,
// hookSpecificOutput: {tool_input, additionalContext, llm_request, llm_response, …}}`. Gemini parses
// stdout (or, when stdout is empty, stderr) as JSON whatever the exit code, so the adapter writes its
// deny as JSON too, with exit 2 and the reason on stderr (dispatch/gemini-command.ts reads a Gemini
// hook's process exactly as Gemini does).
import { str } from './common.js';
import { failure, readAnswer, toAnswer } from './gemini-answer.js';
import { EVENTS } from './gemini-events.js';
import { renderInput, toDispatch } from './gemini-input.js';
import type { AgentProtocol } from './protocol.js';

type Obj = Record<string, unknown>;

export const GEMINI: AgentProtocol = Object.freeze({
  name: 'gemini',
  title: 'Gemini CLI',
  version: '@google/gemini-cli 0.61.0',
  events: EVENTS,
  projectDirEnv: 'GEMINI_PROJECT_DIR',
  eventOf: (raw: Obj) => str(raw.hook_event_name),
  toDispatch,
  renderInput,
  readAnswer,
  toAnswer,
  failure,
});
