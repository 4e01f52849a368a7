// What hookwarden knows about one coding agent's hooks (docs/agents.md): its events and how each maps
// onto the one catalogue, how its hook input becomes a dispatch input and back (for hooks written
// for it), how its hooks answer, and how a DispatchResult is answered to it. One object per agent
// (codex.ts, gemini.ts, cursor.ts, copilot.ts); the adapters, the loader, the command protocol and
// fixtures all read the same object. Dependency-free.

import type { DispatchResult } from '../result.js';
import type { ToolAgent } from '../tool-vocabulary.js';
import type { HookInput } from '../types.js';

export type AgentName = ToolAgent;

type Obj = Record<string, unknown>;

/** One of an agent's hook events. */
export interface AgentEvent {
  /** The name hookwarden dispatches it under: a catalogue name or alias (PostToolUseFailure: ok false). */
  readonly dispatch: string;
  /** The tool the event is about when the event itself names it (Cursor's beforeShellExecution: Bash). */
  readonly tool?: string;
  /** Whether a deny (or a failure without a verdict) blocks what the event is about. */
  readonly canBlock: boolean;
  /**
   * Why `<agent> install` leaves this event's hooks with the agent (an answer hookwarden cannot carry
   * back); undefined: they are routed.
   */
  readonly left?: string;
}

/** What an adapter answers the agent: exit code, stdout, stderr. */
export interface AgentAnswer {
  readonly exitCode: 0 | 1 | 2;
  /** A JSON object and a newline, or empty. */
  readonly stdout: string;
  readonly stderr: string;
  /** Result fields the agent has no place for at this event (dropped; stderr names them). */
  readonly dropped: readonly string[];
  /** Cursor's sessionStart `env` (written in its JSON answer): variables for the session. */
  readonly sessionEnv?: Readonly<Record<string, string>>;
  /** Claude Code's CLAUDE_ENV_FILE: the bash lines the session-env rule kept (the adapter appends them). */
  readonly sessionEnvScript?: string;
}

/** How the adapter was told to answer (its flags). */
export interface AnswerOptions {
  /**
   * Answer a passthrough on a permission event with an explicit allow: Cursor blocks a hook marked
   * `failClosed` that answers nothing (`--explicit-allow`, written by `cursor install` for those).
   */
  readonly explicitAllow?: boolean;
}

/** The agent's own input, kept on the dispatch input so hooks written for the agent read it as sent. */
export interface AgentOrigin {
  readonly agent: AgentName;
  /** The agent's event name. */
  readonly name: string;
  /** The input exactly as the agent sent it. */
  readonly input: Obj;
}

/** The dispatch input key that holds the AgentOrigin. */
export const AGENT_ORIGIN_KEY = 'agentEvent';

/** A hook input the agent sent that hookwarden cannot read (the adapter answers it fail-closed). */
export class AgentInputProblem extends Error {
  override readonly name = 'AgentInputProblem';
  constructor(
    message: string,
    /** The agent's event, when the input named a known one. */
    readonly event?: string,
  ) {
    super(message);
  }
}

/** A hook's answer in the agent's vocabulary, mapped to hookwarden's (and Claude Code's) field names. */
interface ReadAnswer {
  readonly mapped: Obj;
  readonly ignored: readonly string[];
  /**
   * Set when the agent itself would reject the answer (Codex: an unknown field, an unsupported
   * decision): the hook then failed, unless its answer also denies (a deny always counts).
   */
  readonly invalid?: string;
}

export interface AgentProtocol {
  readonly name: AgentName;
  /** As people write it: `Codex CLI`. */
  readonly title: string;
  /** The version of the agent whose code or docs this protocol was checked against (docs/agents.md). */
  readonly version: string;
  /** Every event, by the agent's name for it. */
  readonly events: Readonly<Record<string, AgentEvent>>;
  /** Environment variable the agent sets to the project directory for its hooks (the sandbox root). */
  readonly projectDirEnv: string | undefined;
  /** The agent's event name in one of its inputs (undefined: none, or not a string). */
  eventOf(raw: Obj): string | undefined;
  /** The agent's input → the dispatch event and input (vocabulary tool names, the origin kept). */
  toDispatch(event: string, raw: Obj): { event: string; input: Obj };
  /** What a hook written for the agent reads on stdin, registered under the agent's `event`. */
  renderInput(event: string, input: HookInput): Obj;
  /** A hook written for the agent answered `raw` at its `event`: the answer in hookwarden's words. */
  readAnswer(event: string, raw: Obj, input: HookInput | undefined): ReadAnswer;
  /** The answer to the agent for a dispatch of its `event` (`dispatched`: the dispatch input). */
  toAnswer(event: string, result: DispatchResult, dispatched: Obj, options?: AnswerOptions): AgentAnswer;
  /** The answer when no verdict could be reached: fail closed where `event` can block (or is unknown). */
  failure(event: string | undefined, reason: string): AgentAnswer;
}

/** The AgentOrigin of a dispatch input (undefined: it came from elsewhere). */
export function originOf(input: Obj): AgentOrigin | undefined {
  const o = input[AGENT_ORIGIN_KEY];
  if (typeof o !== 'object' || o === null) return undefined;
  const { agent, name, input: raw } = o as Partial<AgentOrigin>;
  return typeof agent === 'string' && typeof name === 'string' && typeof raw === 'object' && raw !== null
    ? (o as AgentOrigin)
    : undefined;
}
