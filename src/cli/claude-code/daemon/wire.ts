// The protocol between hookwarden-client (src/cli/claude-code/native/) and the Claude Code daemon, on
// the daemon's Unix socket. Binary and tiny, so that a C program of a few hundred lines speaks it:
// every message is a frame, a 4-byte big-endian length and that many bytes; most frames are lists
// of NUL-terminated strings (no path, argument or variable can hold a NUL).
//
//   client → daemon  HELLO   "HWC1\0" kind\0 cwd\0 argc\0 arg…\0 envc\0 NAME=VALUE…\0
//                            kind: "call" (a hook call), "status" or "stop" (hookwarden claude-code daemon)
//   daemon → client  'R' n\0 <k><path>\0 …       the reads of its load to digest (k: f F d e s)
//                    'F' reason                   fall back: run the adapter in process
//                    'J' json                     the answer to status / stop
//   client → daemon  CALL    n\0 digest…\0 deadline-ms|"-"\0 <the hook input: every byte left>
//   daemon → client  'A' code(1 byte) stdout-length(4 bytes BE) stdout stderr   the answer
//                    'F' reason                   fall back (files changed, anything else)
//
// Digests follow config/read-log.ts: lowercase hex SHA-256, or "absent", "unreadable", "present".
// The environment is the caller's, whole, as the in-process adapter would see it in process.env: it
// lives in the daemon's memory for the call only, never in its own environment or command line.
// Dependency-free.
import type { ReadKind } from '../../../config/read-log.js';

export const MAGIC = 'HWC1';
/** Largest HELLO (arguments and environment; Linux caps both together at a few MiB). */
export const MAX_HELLO_BYTES = 8 * 1024 * 1024;
/** Largest CALL: the hook input (limits.maxInputBytes, 8 MiB) and the digests. */
export const MAX_CALL_BYTES = 24 * 1024 * 1024;

/** The letter of each read kind on the wire. */
export const KIND_LETTER: Readonly<Record<ReadKind, string>> = {
  file: 'f',
  'file-nofollow': 'F',
  dir: 'd',
  exists: 'e',
  stat: 's',
};

export type HelloKind = 'call' | 'status' | 'stop';

export interface Hello {
  readonly kind: HelloKind;
  readonly cwd: string;
  /** The adapter's arguments: what follows `claude-code` in the hook command. */
  readonly args: readonly string[];
  /** The caller's environment (null prototype; the first of a repeated name wins, as getenv does). */
  readonly env: Readonly<Record<string, string>>;
}

export interface Call {
  readonly digests: readonly string[];
  /** Milliseconds left of the adapter's --timeout when the client sent the call. */
  readonly deadlineMs: number | undefined;
  readonly input: Buffer;
}

/** A wire problem: the message says what was wrong (the client falls back). */
export class WireError extends Error {
  override readonly name = 'WireError';
}

/** Splits `bytes` into NUL-terminated strings from `at`; returns them and where the rest begins. */
function strings(bytes: Buffer, at: number, count: number): { list: string[]; next: number } {
  const list: string[] = [];
  let pos = at;
  for (let i = 0; i < count; i++) {
    const end = bytes.indexOf(0, pos);
    if (end < 0) throw new WireError('a string without its NUL');
    list.push(bytes.toString('utf8', pos, end));
    pos = end + 1;
  }
  return { list, next: pos };
}

/** A decimal count field, at most `max`. */
function count(text: string | undefined, max: number, what: string): number {
  if (text === undefined || !/^\d{1,9}$/.test(text) || Number(text) > max)
    throw new WireError(`${what}: not a count`);
  return Number(text);
}

export function parseHello(bytes: Buffer): Hello {
  const head = strings(bytes, 0, 4);
  const [magic, kind, cwd, argc] = head.list;
  if (magic !== MAGIC) throw new WireError('not a hookwarden-client hello');
  if (kind !== 'call' && kind !== 'status' && kind !== 'stop') throw new WireError('unknown request kind');
  const args = strings(bytes, head.next, count(argc, 100_000, 'argc'));
  const envc = strings(bytes, args.next, 1);
  const vars = strings(bytes, envc.next, count(envc.list[0], 1_000_000, 'envc'));
  if (vars.next !== bytes.length) throw new WireError('bytes after the environment');
  const env: Record<string, string> = Object.create(null);
  for (const entry of vars.list) {
    const eq = entry.indexOf('=');
    // As Node builds process.env: an entry without "=" is no variable; the first of a name wins.
    if (eq <= 0) continue;
    const name = entry.slice(0, eq);
    if (!Object.hasOwn(env, name)) env[name] = entry.slice(eq + 1);
  }
  return { kind, cwd: cwd!, args: args.list, env };
}

export function parseCall(bytes: Buffer, reads: number): Call {
  const n = strings(bytes, 0, 1);
  if (count(n.list[0], 10_000_000, 'digest count') !== reads)
    throw new WireError(`expected ${reads} digests`);
  const digests = strings(bytes, n.next, reads);
  const deadline = strings(bytes, digests.next, 1);
  const d = deadline.list[0]!;
  if (d !== '-' && !/^\d{1,10}$/.test(d)) throw new WireError('deadline: not milliseconds');
  return {
    digests: digests.list,
    deadlineMs: d === '-' ? undefined : Number(d),
    input: bytes.subarray(deadline.next),
  };
}

/** A frame: its length, then its bytes. */
export function frame(payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(payload.length);
  return Buffer.concat([head, payload]);
}

const nul = (list: readonly string[]) => Buffer.from(list.map((s) => `${s}\0`).join(''), 'utf8');

export const readsFrame = (reads: readonly { kind: ReadKind; path: string }[]) =>
  frame(
    Buffer.concat([
      Buffer.from('R'),
      nul([String(reads.length), ...reads.map((r) => `${KIND_LETTER[r.kind]}${r.path}`)]),
    ]),
  );

export const fallbackFrame = (reason: string) => frame(Buffer.from(`F${reason}`, 'utf8'));

export const jsonFrame = (value: unknown) => frame(Buffer.from(`J${JSON.stringify(value)}`, 'utf8'));

export function answerFrame(code: number, stdout: string, stderr: string): Buffer {
  const out = Buffer.from(stdout, 'utf8');
  const head = Buffer.alloc(6);
  head.write('A', 0, 'latin1');
  head.writeUInt8(code & 0xff, 1);
  head.writeUInt32BE(out.length, 2);
  return frame(Buffer.concat([head, out, Buffer.from(stderr, 'utf8')]));
}

/** The HELLO a client sends (the Node side: `daemon status|stop`, and tests). */
export function helloFrame(hello: Hello): Buffer {
  const env = Object.entries(hello.env).map(([k, v]) => `${k}=${v}`);
  return frame(
    nul([MAGIC, hello.kind, hello.cwd, String(hello.args.length), ...hello.args, String(env.length), ...env]),
  );
}

/**
 * Reads frames off a stream: push() the bytes as they come, next() yields each complete frame;
 * a frame longer than `max` is a WireError.
 */
export class FrameReader {
  #buf: Buffer = Buffer.alloc(0);
  push(chunk: Buffer): void {
    this.#buf = this.#buf.length === 0 ? chunk : Buffer.concat([this.#buf, chunk]);
  }
  next(max: number): Buffer | undefined {
    if (this.#buf.length < 4) return undefined;
    const len = this.#buf.readUInt32BE(0);
    if (len > max) throw new WireError(`a frame of ${len} bytes, above ${max}`);
    if (this.#buf.length < 4 + len) return undefined;
    const payload = this.#buf.subarray(4, 4 + len);
    this.#buf = this.#buf.subarray(4 + len);
    return payload;
  }
  /** Bytes received and not yet part of a complete frame. */
  get pending(): number {
    return this.#buf.length;
  }
}
