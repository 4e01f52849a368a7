// A recorded session for `bench --replay`: JSON Lines, one hook input per line, in the order the
// agent sent them, each naming its event (`hook_event_name` in Claude Code's and the other agents'
// spelling, `event` in hookwarden's). A file may hold several sessions (told apart by `session_id`
// or `sessionId`; a line without one belongs to its file's session), a directory is every
// `.jsonl` file in it, by name. The file is untrusted input like any other: size-capped, parsed
// line by line, each problem named by file and line, never a stack trace.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { LIMIT_BOUNDS } from '../config/defaults.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { renderValue } from '../contract/messages.js';
import { nestingDepth } from '../dispatch/input-shape.js';
import { canonicalJson } from '../registry/hook-id.js';
import { sha256 } from './hook-digest.js';

/** Largest recording read (all files together). */
const MAX_RECORDING_BYTES = 256 << 20;
/** Most events a recording may hold. */
const MAX_RECORDED_EVENTS = 1_000_000;

/** One recorded event: its name as recorded, and its input as given. */
export interface RecordedEvent {
  readonly event: string;
  readonly input: Readonly<Record<string, unknown>>;
  /** `file:line`, for messages. */
  readonly at: string;
}

export interface RecordedSession {
  readonly id: string;
  readonly events: readonly RecordedEvent[];
}

export interface Recording {
  /** The path as given. */
  readonly source: string;
  /** The files read, in order. */
  readonly files: readonly string[];
  readonly sessions: readonly RecordedSession[];
  /** Every event, session after session, each session in recorded order: what a pass replays. */
  readonly events: readonly RecordedEvent[];
  /** `sha256:` over the events as given (canonical JSON, one per line). */
  readonly digest: string;
}

const bad = (at: string, message: string) => new HookwardenError('invalid_input', `${at}: ${message}`);

function recordingFiles(path: string): string[] {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch (err) {
    throw bad(path, `cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  if (!st.isDirectory()) return [path];
  const files = readdirSync(path)
    .filter((f) => f.endsWith('.jsonl') || f.endsWith('.ndjson'))
    .sort()
    .map((f) => join(path, f))
    .filter((f) => statSync(f).isFile());
  if (files.length === 0)
    throw bad(
      path,
      'a directory without .jsonl files; record a session first (docs/bench.md#recording-a-session)',
    );
  return files;
}

function eventName(line: Record<string, unknown>, at: string): string {
  const a = line.hook_event_name;
  const b = line.event;
  const name = a ?? b;
  if (a !== undefined && b !== undefined && a !== b)
    throw bad(at, `hook_event_name ${renderValue(a)} and event ${renderValue(b)} name different events`);
  if (typeof name !== 'string' || name === '' || name.length > 200)
    throw bad(
      at,
      `expected the event's name in "hook_event_name" (Claude Code) or "event" (hookwarden), got ${renderValue(name)}`,
    );
  return name;
}

function sessionOf(line: Record<string, unknown>, fallback: string, at: string): string {
  const id = line.session_id ?? line.sessionId;
  if (id === undefined) return fallback;
  if (typeof id !== 'string' || id.length > 1000)
    throw bad(at, `session_id: expected a string, got ${renderValue(id)}`);
  return id;
}

function parseLine(text: string, at: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw bad(at, `not JSON (${(err as Error).message}); each line is one hook input`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bad(at, `expected a JSON object (one hook input), got ${renderValue(value)}`);
  if (nestingDepth(value, LIMIT_BOUNDS.maxInputDepth) > LIMIT_BOUNDS.maxInputDepth)
    throw bad(at, `nested deeper than ${LIMIT_BOUNDS.maxInputDepth} levels`);
  return value as Record<string, unknown>;
}

/** Reads a recording (a .jsonl file or a directory of them); throws `invalid_input` naming the line. */
export function readRecording(path: string): Recording {
  const files = recordingFiles(path);
  const sessions = new Map<string, RecordedEvent[]>();
  const hash: string[] = [];
  let bytes = 0;
  let count = 0;
  for (const file of files) {
    const size = statSync(file).size;
    bytes += size;
    if (bytes > MAX_RECORDING_BYTES)
      throw bad(file, `the recording is over ${MAX_RECORDING_BYTES} bytes; replay a shorter one`);
    const text = readFileSync(file, 'utf8');
    const fallback = basename(file).replace(/\.(jsonl|ndjson)$/, '');
    let lineNo = 0;
    for (const raw of text.split('\n')) {
      lineNo++;
      if (raw.trim() === '') continue;
      const at = `${file}:${lineNo}`;
      if (++count > MAX_RECORDED_EVENTS)
        throw bad(at, `more than ${MAX_RECORDED_EVENTS} events; replay a shorter recording`);
      const input = parseLine(raw, at);
      const event = eventName(input, at);
      const session = sessionOf(input, fallback, at);
      let list = sessions.get(session);
      if (list === undefined) {
        list = [];
        sessions.set(session, list);
      }
      list.push({ event, input, at });
      hash.push(canonicalJson(input));
    }
  }
  if (count === 0) throw bad(path, 'no events: the recording is empty');
  const recorded = [...sessions].map(([id, events]) => ({ id, events }));
  return {
    source: path,
    files,
    sessions: recorded,
    events: recorded.flatMap((s) => s.events),
    digest: sha256(hash.join('\n')),
  };
}
