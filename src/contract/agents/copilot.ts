// GitHub Copilot CLI (@github/copilot 1.0.102: the event and field names of its runtime, its SDK
// types (copilot-sdk/types.d.ts) and GitHub's "Copilot CLI hooks reference" and "Hooks
// configuration" pages). `.github/hooks/*.json` and `~/.copilot/hooks`: `{"version": 1, "hooks":
// {event: [{type: "command", bash, powershell, cwd, env, timeoutSec}]}}` (30 s default). The input is
// camelCase with a millisecond `timestamp` and the tool's arguments as a JSON *string* (`toolArgs`);
// answers are flat camelCase: `permissionDecision`, `permissionDecisionReason`, `modifiedArgs`,
// `additionalContext`, `decision: "block"` + `reason`, `behavior`, `modifiedPrompt`, `modifiedResult`.
// A preToolUse hook that errs denies the call ("Denied by preToolUse hook (hook errored)"); exit 2 is
// only a warning, so the adapter answers every verdict with exit 0 and its JSON.
import { str } from './common.js';
import { failure, readAnswer, toAnswer } from './copilot-answer.js';
import { EVENTS } from './copilot-events.js';
import { renderInput, toDispatch } from './copilot-input.js';
import type { AgentProtocol } from './protocol.js';

type Obj = Record<string, unknown>;

export const COPILOT: AgentProtocol = Object.freeze({
  name: 'copilot',
  title: 'Copilot CLI',
  version: '@github/copilot 1.0.102',
  events: EVENTS,
  projectDirEnv: undefined,
  eventOf: (raw: Obj) => str(raw.hook_event_name) ?? str(raw.hookEventName),
  toDispatch,
  renderInput,
  readAnswer,
  toAnswer,
  failure,
});
