// The CLI's HookInput: from a file, from stdin, or empty; `event`, `sessionId`, `cwd` and
// `timestamp` are filled in when missing (the event argument always wins).
//
// Without `--input`, stdin is read when it is a pipe, a socket or a file (`echo … | hookwarden`,
// `< event.json`, a parent process that pipes the event): what a caller pipes in is never dropped.
// A terminal, /dev/null (any character device) or a closed stdin means no input: `{}`. A caller
// that leaves a pipe open without ever writing or closing it must pass `--input` (or `</dev/null`):
// hookwarden reads a pipe to its end, as every hook protocol on stdin does.
import { constants, openSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { parseJsonText } from '../config/read-json.js';
import { stdinHasInput } from './stdin.js';
import { UsageError } from './usage-error.js';

async function readAll(stream: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A file's text. A FIFO (`-i <(…)`, a named pipe) is read through the event loop, like stdin, not by
 * a blocking read(2) on one of Node's I/O threads: Node joins those threads when it exits, so an
 * interrupted dispatch could print its answer and then never exit while the writer stays silent.
 */
async function readInputFile(path: string): Promise<string> {
  if (!(await stat(path)).isFIFO()) return readFile(path, 'utf8');
  // O_NONBLOCK: opening does not wait for a writer; reading waits for data or the writer's close.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  return readAll(new Socket({ fd, readable: true, writable: false }));
}

const flagged = (label: string) => (label.startsWith('stdin') ? label : `--input ${label}`);

/**
 * The HookInput as given: the JSON object of the file, of stdin, or `{}`; nothing filled in (what
 * `bench` digests, so that two runs of one file have one digest).
 */
export async function readCliInputObject(source: string | undefined): Promise<Record<string, unknown>> {
  let value: unknown = {};
  const fromStdin = source === '-' || (source === undefined && stdinHasInput());
  if (fromStdin || source !== undefined) {
    let text: string;
    const label =
      source === undefined ? 'stdin (read because it is not a terminal)' : fromStdin ? '-' : source;
    try {
      text = fromStdin ? await readAll(process.stdin) : await readInputFile(source as string);
    } catch (err) {
      throw new UsageError(
        `${flagged(label)}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
    }
    if (text.trim() !== '') {
      const parsed = parseJsonText(text);
      if (!parsed.ok) throw new UsageError(`${flagged(label)}: ${parsed.message}`);
      value = parsed.value;
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(
      '--input: expected a JSON object (a HookInput), e.g. {"toolName":"Bash","toolInput":{"command":"ls"}}',
    );
  }
  return value as Record<string, unknown>;
}

export async function readCliInput(
  source: string | undefined,
  event: string,
): Promise<Record<string, unknown>> {
  const input = await readCliInputObject(source);
  return {
    ...input,
    event,
    // Claude Code's `session_id` names the session too (its camelCase twin is added at dispatch).
    ...(input.sessionId === undefined && input.session_id !== undefined
      ? {}
      : { sessionId: input.sessionId ?? 'cli' }),
    cwd: input.cwd ?? process.cwd(),
    timestamp: input.timestamp ?? new Date().toISOString(),
  };
}
