// What one agent's adapter is made of (`hookwarden claude-code|codex|gemini|cursor|copilot`): how it
// reads the hook input the agent pipes to it, how it answers a DispatchResult and a failure in the
// agent's protocol, and where the agent says the project is. The adapter itself — flags, the fast
// path, the daemon, the one-shot dispatch, fail-closed answers — is one (run-adapter.ts).
// Dependency-free: the fast path loads it.
import type { AgentAnswer } from '../../contract/agents/protocol.js';
import type { DispatchResult } from '../../contract/result.js';
import type { AdapterFlags, FlagSpec } from '../claude-code/flags.js';

type Obj = Record<string, unknown>;

/** One hook input, read: the agent's event, and the dispatch it asks for. */
export interface AdapterInput {
  /** The agent's event name (what the answer is written for). */
  readonly event: string;
  /** The name hookwarden dispatches (a catalogue name or alias). */
  readonly dispatchEvent: string;
  /** The dispatch input. */
  readonly input: Obj;
}

export interface AdapterSpec {
  /** The CLI command: `claude-code`, `codex`, … */
  readonly command: string;
  /** As messages name the agent: `Claude Code`, `Codex`, … */
  readonly title: string;
  /** Environment variable the agent sets to its project directory (the sandbox root), if any. */
  readonly projectDirEnv: string | undefined;
  /** Flags this adapter takes besides the shared ones. */
  readonly extraFlags: readonly FlagSpec[];
  /**
   * The input on stdin, checked; throws an InputProblem or AgentInputProblem (with the event when
   * the input named a known one) for anything it cannot read.
   */
  read(text: string, flags: AdapterFlags): AdapterInput;
  /** The answer to a DispatchResult. */
  answer(read: AdapterInput, result: DispatchResult, flags: AdapterFlags): AgentAnswer;
  /** The fail-closed answer when no verdict was reached (`event`: the agent's, if known). */
  failure(event: string | undefined, reason: string): AgentAnswer;
  /**
   * Writes the session-env lines of an answer (`sessionEnvScript`) where the agent reads them, for a
   * caller with environment `env`; returns notes (Claude Code's CLAUDE_ENV_FILE).
   */
  writeSessionEnv?(script: string, env: Readonly<Record<string, string | undefined>>): string[];
}
