// Cursor (its hooks reference, cursor.com/docs/reference/hooks, as observed on Cursor 3.9.16, and
// cursor.com/docs/reference/third-party-hooks; Cursor is not on npm). `.cursor/hooks.json` (project),
// `~/.cursor/hooks.json` (user), `/etc/cursor/hooks.json` (enterprise): `{"version": 1, "hooks":
// {event: [{command, type, timeout, matcher, failClosed, loop_limit}]}}`. Inputs carry
// `conversation_id`, `generation_id` and `workspace_roots`; answers are flat snake_case:
// `{permission: "allow"|"deny"|"ask", user_message, agent_message, updated_input, continue,
// additional_context, followup_message, env}`. Exit 2 denies; any other failure lets the action
// through unless the hook says `failClosed: true`. The adapter answers at exit 0 with the JSON
// (Cursor dumps a JSON body written with exit 2 unparsed as the reason).

import { str } from './common.js';
import { failure, readAnswer, toAnswer } from './cursor-answer.js';
import { EVENTS } from './cursor-events.js';
import { renderInput, toDispatch } from './cursor-input.js';
import type { AgentProtocol } from './protocol.js';

type Obj = Record<string, unknown>;

export const CURSOR: AgentProtocol = Object.freeze({
  name: 'cursor',
  title: 'Cursor',
  version: 'Cursor 3.9.16 (cursor.com/docs/reference/hooks)',
  events: EVENTS,
  projectDirEnv: 'CURSOR_PROJECT_DIR',
  eventOf: (raw: Obj) => str(raw.hook_event_name),
  toDispatch,
  renderInput,
  readAnswer,
  toAnswer,
  failure,
});
