// The protocol between hookwarden-client (src/cli/claude-code/native/) and the daemon (every agent's), on
// the daemon's Unix socket. Binary and tiny, so that a C program of a few hundred lines speaks it:
// every message is a frame, a 4-byte big-endian length and that many bytes; most of a frame is a
// list of NUL-terminated strings (no path, argument or variable can hold a NUL).
//
// One round trip per call. Beside its socket the daemon keeps the list of what its load read, the
// manifest (`<socket>.reads`, mode 0600, replaced whenever it reloads):
//
//   "HWR1\0" token\0 n\0 <k><path>\0 …     k: f F d e s (config/read-log.ts's kinds)
//
// where the token is the SHA-256 of what follows it. The client reads it, digests each path itself,
// and sends ONE request:
//
//   client → daemon  "HWC3\0" kind\0 cwd\0 argc\0 arg…\0 envc\0 NAME=VALUE…\0
//                    token\0 n\0 digest…\0 deadline-ms|"-"\0 <the hook input: every byte left>
//                    kind: "call" (a hook call), or "status" / "stop" (`daemon status|stop`: token
//                    "-", no digests, no input); the arguments are the adapter's command and its
//                    flags (`codex --config …`)
//   daemon → client  'A' code(1 byte) stdout-length(4 bytes BE) stdout stderr   the answer
//                    'F' reason        fall back: run the adapter in process (anything in doubt)
//                    'J' json          the answer to status / stop
//
// The daemon answers only when the token is its current manifest's and every digest matches it:
// what the client digested is then exactly what the daemon's configuration was loaded from.
// Digests follow config/read-log.ts: lowercase hex SHA-256, or "absent", "unreadable", "present",
// or a `stat` line. The environment is the caller's, whole, as the in-process adapter would see it
// in process.env: it lives in the daemon's memory for the call only, never in its own environment
// or command line. Dependency-free but for node:crypto.
import { createHash } from 'node:crypto';
import type { LoadRead, ReadKind } from '../../../config/read-log.js';

const MAGIC = 'HWC3';
const MANIFEST_MAGIC = 'HWR1';
/** Largest request: arguments and environment (a few MiB at most on Linux), the digests, the input (8 MiB). */
export const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

/** The letter of each read kind on the wire. */
const KIND_LETTER: Readonly<Record<ReadKind, string>> = {
  file: 'f',
  'file-nofollow': 'F',
  dir: 'd',
  exists: 'e',
  stat: 's',
};

export type RequestKind = 'call' | 'status' | 'stop';

export interface Request {
  readonly kind: RequestKind;
  readonly cwd: string;
  /** The adapter's command and its flags: what follows node and bin in the hook command (`codex --config …`). */
  readonly args: readonly string[];
  /** The caller's environment (null prototype; the first of a repeated name wins, as getenv does). */
  readonly env: Readonly<Record<string, string>>;
  /** The manifest the digests were computed for. */
  readonly token: string;
  readonly digests: readonly string[];
  /** Milliseconds left of the adapter's --timeout when the client sent the call. */
  readonly deadlineMs: number | undefined;
  readonly input: Buffer;
}

/** A wire problem: the message says what was wrong (the client falls back). */
class WireError extends Error {
  override readonly name = 'WireError';
}

const nul = (list: readonly string[]) => Buffer.from(list.map((s) => `${s}\0`).join(''), 'utf8');

/** The manifest of `reads`: its token and the bytes of its file. */
export function manifest(reads: readonly LoadRead[]): { token: string; bytes: Buffer } {
  const list = nul([String(reads.length), ...reads.map((r) => `${KIND_LETTER[r.kind]}${r.path}`)]);
  const token = createHash('sha256').update(list).digest('hex');
  return { token, bytes: Buffer.concat([nul([MANIFEST_MAGIC, token]), list]) };
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

export function parseRequest(bytes: Buffer): Request {
  const head = strings(bytes, 0, 4);
  const [magic, kind, cwd, argc] = head.list;
  if (magic !== MAGIC) throw new WireError('not a hookwarden-client request (of this version)');
  if (kind !== 'call' && kind !== 'status' && kind !== 'stop') throw new WireError('unknown request kind');
  const args = strings(bytes, head.next, count(argc, 100_000, 'argc'));
  const envc = strings(bytes, args.next, 1);
  const vars = strings(bytes, envc.next, count(envc.list[0], 1_000_000, 'envc'));
  const env: Record<string, string> = Object.create(null);
  for (const entry of vars.list) {
    const eq = entry.indexOf('=');
    // As Node builds process.env: an entry without "=" is no variable; the first of a name wins.
    if (eq <= 0) continue;
    const name = entry.slice(0, eq);
    if (!Object.hasOwn(env, name)) env[name] = entry.slice(eq + 1);
  }
  const tail = strings(bytes, vars.next, 2);
  const [token, n] = tail.list;
  const digests = strings(bytes, tail.next, count(n, 10_000_000, 'digest count'));
  const deadline = strings(bytes, digests.next, 1);
  const d = deadline.list[0]!;
  if (d !== '-' && !/^\d{1,10}$/.test(d)) throw new WireError('deadline: not milliseconds');
  return {
    kind,
    cwd: cwd!,
    args: args.list,
    env,
    token: token!,
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

/** A request as a client sends it (the Node side: `daemon status|stop`, and tests). */
export function requestFrame(
  r: Pick<Request, 'kind' | 'cwd' | 'args' | 'env'> & Partial<Pick<Request, 'token' | 'digests' | 'input'>>,
): Buffer {
  const env = Object.entries(r.env).map(([k, v]) => `${k}=${v}`);
  const digests = r.digests ?? [];
  return frame(
    Buffer.concat([
      nul([MAGIC, r.kind, r.cwd, String(r.args.length), ...r.args, String(env.length), ...env]),
      nul([r.token ?? '-', String(digests.length), ...digests, '-']),
      r.input ?? Buffer.alloc(0),
    ]),
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
}
