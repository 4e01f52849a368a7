// Gemini CLI's hook events (gemini.ts, HookEventName of @google/gemini-cli-core 0.61.0's
// hooks/types.js) and what each maps onto in hookwarden's catalogue. Dependency-free.
import type { AgentEvent } from './protocol.js';

const MODEL_LEFT =
  'its hooks answer with model requests and responses (llm_request, llm_response), which hookwarden does not fold back into Gemini';

/** Gemini CLI 0.61.0's HookEventName. */
export const EVENTS: Readonly<Record<string, AgentEvent>> = Object.freeze({
  BeforeTool: { dispatch: 'BeforeTool', canBlock: true },
  // A deny hides the tool's result from the model (its reason replaces it).
  AfterTool: { dispatch: 'AfterTool', canBlock: true },
  BeforeAgent: { dispatch: 'BeforeTurn', canBlock: true },
  // A deny there makes Gemini retry the turn: never said for a failure.
  AfterAgent: { dispatch: 'AfterTurn', canBlock: false },
  BeforeModel: { dispatch: 'BeforeModel', canBlock: true, left: MODEL_LEFT },
  AfterModel: { dispatch: 'AfterModel', canBlock: true, left: MODEL_LEFT },
  BeforeToolSelection: {
    dispatch: 'BeforeToolSelection',
    canBlock: false,
    left: 'its hooks answer with a tool configuration (toolConfig), which hookwarden has no field for',
  },
  SessionStart: { dispatch: 'SessionStart', canBlock: false },
  SessionEnd: { dispatch: 'SessionEnd', canBlock: false },
  Notification: { dispatch: 'Notification', canBlock: false },
  PreCompress: { dispatch: 'PreCompact', canBlock: false },
});
