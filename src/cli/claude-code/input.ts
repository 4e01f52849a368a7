// The one Claude Code hook input the adapter reads on stdin (adapter/run-adapter.ts reads it, capped),
// checked before anything else loads:
// at most 8 MiB, a JSON object nested at most 64 levels, `hook_event_name` one of Claude Code's
// events, and the common fields of the right type. Anything else is an InputProblem, which the
// adapter answers fail-closed. Dependency-free (no zod): the no-hook-matches path runs on it alone.

import { DEFAULTS } from '../../config/defaults.js';
import { CLAUDE_CODE_EVENTS } from '../../contract/claude-code-events.js';
import { isObject } from '../../contract/messages.js';
import { nestingDepth } from '../../dispatch/input-shape.js';

/** Input the adapter cannot read; `event` is set when the input named a known event. */
export class InputProblem extends Error {
  override readonly name = 'InputProblem';
  constructor(
    message: string,
    readonly event?: string,
  ) {
    super(message);
  }
}

/** Largest input read (the default of `limits.maxInputBytes`; the dispatch applies the config's). */
export const MAX_STDIN_BYTES = DEFAULTS.limits.maxInputBytes;

const STRING_FIELDS = ['session_id', 'transcript_path', 'cwd', 'permission_mode', 'tool_name', 'tool_use_id'];
const OBJECT_FIELDS = ['tool_input'];

/** Reads a stream to its end, refusing more than `maxBytes`. */
export async function readCapped(stream: AsyncIterable<unknown>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes)
      throw new InputProblem(`the input on stdin is larger than ${maxBytes} bytes (limits.maxInputBytes)`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

/**
 * A hook input's JSON: one object, nested at most limits.maxInputDepth levels deep, or an
 * InputProblem (every adapter's first check).
 */
export function parseInputJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    // V8's message quotes the input: keep only what is wrong and where.
    const what = (err as Error).message.replace(/, ".*" is not valid JSON$/s, '').replace(/\s+/g, ' ');
    throw new InputProblem(`the input on stdin is not JSON (${what})`);
  }
  if (!isObject(value)) throw new InputProblem('the input on stdin is not a JSON object');
  const maxDepth = DEFAULTS.limits.maxInputDepth;
  if (nestingDepth(value, maxDepth) > maxDepth)
    throw new InputProblem(`the input is nested deeper than ${maxDepth} levels (limits.maxInputDepth)`);
  return value;
}

/** The event and fields of a Claude Code hook input, or an InputProblem naming what is wrong. */
export function checkClaudeCodeInput(text: string): { event: string; input: Record<string, unknown> } {
  if (text.trim() === '')
    throw new InputProblem('no input on stdin: Claude Code pipes each hook its event as JSON');
  const value = parseInputJson(text);
  const event = value.hook_event_name;
  if (typeof event !== 'string' || !Object.hasOwn(CLAUDE_CODE_EVENTS, event)) {
    const got = event === undefined ? 'none' : JSON.stringify(event).slice(0, 80);
    throw new InputProblem(`hook_event_name: expected one of Claude Code's hook events, got ${got}`);
  }
  for (const f of STRING_FIELDS) {
    if (value[f] !== undefined && typeof value[f] !== 'string')
      throw new InputProblem(`${f}: expected a string`, event);
  }
  for (const f of OBJECT_FIELDS) {
    if (value[f] !== undefined && !isObject(value[f]))
      throw new InputProblem(`${f}: expected an object`, event);
  }
  return { event, input: value };
}
