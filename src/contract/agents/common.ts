// Pieces every agent protocol uses: reading the common fields of an input, building the dispatch
// input (the vocabulary's fields, the agent's own input kept as its origin), and writing answers
// (one JSON line, notes on stderr). Dependency-free.

import { brokenHooks, hookWarnings, oneLine, otherHookErrors } from '../answer-notes.js';
import { jsonEqual } from '../json-equal.js';
import { isObject } from '../messages.js';
import type { DispatchResult } from '../result.js';
import { canonicalToolInput, nativeToolInput, type ToolAgent } from '../tool-vocabulary.js';
import {
  AGENT_ORIGIN_KEY,
  type AgentAnswer,
  type AgentEvent,
  AgentInputProblem,
  type AgentOrigin,
  originOf,
} from './protocol.js';

type Obj = Record<string, unknown>;

export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A string field of the input, checked: absent is fine, another type is an AgentInputProblem. */
export function stringField(raw: Obj, key: string, event: string): string | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new AgentInputProblem(`${key}: expected a string`, event);
  return v;
}

/** An object field of the input, checked (absent: undefined). */
export function objectField(raw: Obj, key: string, event: string): Obj | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw new AgentInputProblem(`${key}: expected an object`, event);
  return v;
}

/** A value the agent may send as JSON text (a tool's result): what the text holds, else as it came. */
export const parseMaybeJson = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};

/**
 * A tool input the agent sends as a JSON string (Cursor's MCP `tool_input`, Copilot's `toolArgs`):
 * the object it holds. A string that is not a JSON object is refused (a guard must see the call).
 */
export function jsonObjectField(raw: Obj, key: string, event: string): Obj | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (isObject(v)) return v;
  if (typeof v !== 'string') throw new AgentInputProblem(`${key}: expected a JSON object or string`, event);
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw new AgentInputProblem(
      `${key}: expected a string holding a JSON object, got text that is not JSON`,
      event,
    );
  }
  if (!isObject(parsed))
    throw new AgentInputProblem(`${key}: expected a string holding a JSON object`, event);
  return parsed;
}

/** An ISO time for a number of milliseconds or an ISO string the agent sent (undefined: none). */
export function isoTime(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  }
  if (typeof v === 'string') {
    if (/^\d{10,16}$/.test(v)) return isoTime(Number(v));
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  }
  return undefined;
}

/**
 * The dispatch input: the vocabulary's fields (`fields`, undefined values left out), the agent's
 * other fields passed through under their own names (those it `consumed` are not), and the origin.
 */
export function dispatchInput(
  agent: ToolAgent,
  event: string,
  raw: Obj,
  fields: Obj,
  consumed: readonly string[],
): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k === 'hook_event_name' || k === AGENT_ORIGIN_KEY || consumed.includes(k)) continue;
    out[k] = v;
  }
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v;
  const origin: AgentOrigin = { agent, name: event, input: raw };
  out[AGENT_ORIGIN_KEY] = origin;
  return out;
}

/** The agent's own input when the dispatch came from `agent` (undefined: from elsewhere). */
export function ownOrigin(input: Obj, agent: ToolAgent): AgentOrigin | undefined {
  const o = originOf(input);
  return o?.agent === agent ? o : undefined;
}

/** The event's entry, or an AgentInputProblem naming the agent's events. */
export function knownEvent(
  events: Readonly<Record<string, AgentEvent>>,
  event: unknown,
  title: string,
): AgentEvent {
  if (typeof event === 'string' && Object.hasOwn(events, event)) return events[event]!;
  const got = event === undefined ? 'none' : JSON.stringify(event).slice(0, 80);
  throw new AgentInputProblem(`hook_event_name: expected one of ${title}'s hook events, got ${got}`);
}

/** One JSON line (empty object: nothing). */
const jsonLine = (out: Obj): string => (Object.keys(out).length === 0 ? '' : `${JSON.stringify(out)}\n`);

/** The parts of an answer (see writeAnswer). */
export interface AnswerParts {
  /** The agent, as messages name it. */
  readonly title: string;
  readonly event: string;
  readonly result: DispatchResult;
  readonly exitCode: 0 | 1 | 2;
  /** The JSON answer (empty: nothing on stdout). */
  readonly out: Obj;
  /** The result fields the answer carries (the others are dropped, by name, on stderr). */
  readonly used: ReadonlySet<string>;
  /** Exit 2: the reason the agent shows (stderr holds nothing else); otherwise the first line. */
  readonly reason?: string;
  readonly notes?: readonly string[];
  readonly sessionEnv?: Readonly<Record<string, string>>;
  /**
   * Where the lines of hooks that failed without deciding go when the answer has JSON: this field of
   * `out` (the agent shows it to the user). Without JSON, or without a field, they go to stderr with
   * exit 1, the agents' non-blocking error.
   */
  readonly brokenField?: string;
  /**
   * False: lines of hooks that failed go to stderr and the exit code stays (an agent for which a
   * non-zero exit would change the verdict: Copilot denies a preToolUse hook that errs).
   */
  readonly brokenExit?: boolean;
}

/**
 * An answer: the exit code, the JSON, and on stderr the reason (exit 2) or the notes for the agent's
 * log — hooks that failed, fields that did not reach the agent.
 */
export function writeAnswer(p: AnswerParts): AgentAnswer {
  const { result } = p;
  let exitCode = p.exitCode;
  const out: Obj = { ...p.out };
  const dropped = Object.keys(result).filter((k) => !p.used.has(k));
  const lines: string[] = [];
  if (p.reason !== undefined) lines.push(oneLine(p.reason));
  // Exit 2 is a block only with a reason on stderr (Codex, Claude Code): never a blank one.
  if (exitCode === 2 && (lines[0] ?? '').trim() === '') lines.splice(0, 1, 'hookwarden: blocked by hook');
  if (exitCode !== 2) {
    const broken = brokenHooks(result);
    if (broken.length > 0 && p.brokenField !== undefined && Object.keys(out).length > 0) {
      const before = typeof out[p.brokenField] === 'string' ? [out[p.brokenField] as string] : [];
      out[p.brokenField] = [...before, ...broken].join('\n');
    } else if (broken.length > 0) {
      if (exitCode === 0 && p.brokenExit !== false) exitCode = 1;
      lines.push(...broken);
    }
    // What a hook answered that was not applied (a refused session variable…), for the agent's log.
    lines.push(...otherHookErrors(result), ...hookWarnings(result), ...(p.notes ?? []));
    lines.push(...dropped.map((f) => `hookwarden: ${p.title} takes no ${f} on ${p.event}: dropped`));
  }
  return {
    exitCode,
    stdout: jsonLine(out),
    stderr: lines.length === 0 ? '' : `${lines.join('\n')}\n`,
    dropped,
    ...(p.sessionEnv === undefined ? {} : { sessionEnv: p.sessionEnv }),
  };
}

/** The fields of a DispatchResult every answer reads (the rest are dropped by name). */
export const READ_ALWAYS = ['event', 'decision', 'reason', 'decidedBy', 'interrupted', 'hooks'];

/** The one-line failure reason the agents show. */
export const failureLine = (reason: string): string => `hookwarden: ${reason.split('\n')[0]}`;

/**
 * A rewrite in the agent's own tool input, or why it cannot be given there: the agent applies what
 * the adapter answers, so the answer must say exactly the input the hooks approved (trust
 * invariant 2). `apply` is how the agent combines the answer with the call's input (Gemini merges).
 */
export function expressRewrite(
  agent: ToolAgent,
  native: string,
  original: Obj,
  rewritten: Obj,
  apply: (original: Obj, answer: Obj) => Obj = (_o, a) => a,
): { ok: true; native: Obj } | { ok: false; why: string } {
  const answer = nativeToolInput(agent, native, rewritten);
  const applied = apply(original, answer);
  const back = canonicalToolInput(agent, native, applied);
  if (jsonEqual(back, rewritten)) return { ok: true, native: answer };
  const lost = Object.keys(canonicalToolInput(agent, native, original)).filter(
    (k) => !Object.hasOwn(rewritten, k),
  );
  return {
    ok: false,
    why:
      lost.length > 0
        ? `a hook removed ${lost.map((k) => `"${k}"`).join(', ')} from the tool input, which the agent's rewrite cannot remove`
        : 'a hook rewrote the tool input in a way the agent cannot apply',
  };
}

/** The tool input a dispatch was about (the vocabulary's keys). */
export const dispatchedToolInput = (dispatched: Obj): Obj =>
  isObject(dispatched.toolInput) ? dispatched.toolInput : {};
