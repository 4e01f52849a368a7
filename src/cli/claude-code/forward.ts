// The adapter's daemon path: when `hookwarden serve --socket` runs (--socket, or $HOOKWARDEN_SOCKET),
// the dispatch is sent to it instead of being run in this process: no config to load, no dispatcher
// to start; the daemon's are warm. The answer is the daemon's DispatchResult, mapped as usual.
//
// It never fails open because of the daemon: a socket that is not this user's (or sits in a
// directory others can write), no daemon, a daemon that refuses (another configuration, or files
// changed since it loaded them: 409; or draining, or overloaded) or answers anything but a
// well-formed DispatchResult: the adapter runs the dispatch itself. Before the dispatch it asks the
// daemon what its load read and digests each file itself (two requests on the socket). Only the adapter's own --timeout ends the wait (the answer of an interrupt).
//
// HTTP/1.1 is spoken by hand over node:net (one POST, `Connection: close`, a Content-Length answer):
// node:http costs ~5 ms more to load, a quarter of the budget of this path.
import { connect } from 'node:net';
import { digestNow, type ReadKind } from '../../config/read-log.js';
import { VERDICTS } from '../../contract/decisions.js';
import { isObject } from '../../contract/messages.js';
import { outputFieldProblem } from '../../contract/parse-output.js';
import { PlainJsonError, toPlainJson } from '../../contract/plain-json.js';
import type { DispatchResult } from '../../contract/result.js';
import {
  CONFIG_IDENTITY_HEADER,
  CONFIG_READS_HEADER,
  CONFIG_READS_PATH,
  readsDigest,
} from '../../server/config-identity.js';
import { socketTrustProblem } from '../../server/unix-socket.js';

export type Forwarded =
  | { readonly kind: 'result'; readonly result: DispatchResult }
  | { readonly kind: 'unavailable'; readonly why: string };

/** Largest answer read from the daemon (a DispatchResult is far smaller). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
const VERDICT_SET: ReadonlySet<string> = new Set(VERDICTS);

/** The DispatchResult in a daemon's answer, or what is wrong with it. */
export function checkForwardedResult(raw: unknown): DispatchResult | string {
  let plain: unknown;
  try {
    plain = toPlainJson(raw);
  } catch (err) {
    if (err instanceof PlainJsonError || err instanceof RangeError) return err.message;
    throw err;
  }
  if (!isObject(plain)) return 'not a JSON object';
  if (!VERDICT_SET.has(plain.decision as string)) return 'decision: not a verdict';
  const hooks = plain.hooks;
  if (!Array.isArray(hooks)) return 'hooks: not an array';
  for (const h of hooks) {
    if (!isObject(h) || typeof h.id !== 'string' || typeof h.outcome !== 'string')
      return 'hooks: a malformed record';
    if (
      h.error !== undefined &&
      (!isObject(h.error) || typeof h.error.code !== 'string' || typeof h.error.message !== 'string')
    )
      return 'hooks: a malformed error';
  }
  for (const [key, value] of Object.entries(plain)) {
    if (key === 'decision' || key === 'hooks') continue;
    const problem =
      key === 'event' || key === 'decidedBy'
        ? typeof value === 'string'
          ? undefined
          : 'expected string'
        : key === 'interrupted'
          ? typeof value === 'boolean'
            ? undefined
            : 'expected boolean'
          : outputFieldProblem(key, value);
    if (problem !== undefined) return `${key}: ${problem}`;
  }
  return plain as DispatchResult;
}

/** Status, and body of a complete HTTP/1.1 answer; undefined when it is not one. */
function parseAnswer(bytes: Buffer): { status: number; body: string } | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const head = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3}) /.exec(`${head[0]} `);
  if (status === null) return undefined;
  let length: number | undefined;
  for (const line of head.slice(1)) {
    const [name, ...rest] = line.split(':');
    const value = rest.join(':').trim();
    if (name?.toLowerCase() === 'transfer-encoding') return undefined; // not sent for JSON answers
    if (name?.toLowerCase() === 'content-length') length = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  }
  const body = bytes.subarray(end + 4);
  if (length === undefined || Number.isNaN(length) || body.length !== length) return undefined;
  return { status: Number(status[1]), body: body.toString('utf8') };
}

type Exchanged = { readonly status: number; readonly json: unknown } | { readonly why: string };

/** One HTTP/1.1 request on a new connection to `socket`, and its JSON answer; never rejects. */
function exchange(socket: string, head: string[], body: Buffer = Buffer.alloc(0)): Promise<Exchanged> {
  const request = Buffer.concat([
    Buffer.from([...head, 'host: localhost', 'connection: close', '', ''].join('\r\n'), 'latin1'),
    body,
  ]);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const done = (e: Exchanged) => {
      if (settled) return;
      settled = true;
      conn.destroy();
      resolve(e);
    };
    /** Handles the answer once it is complete; false while it is not. */
    const answered = (): boolean => {
      const answer = parseAnswer(Buffer.concat(chunks));
      if (answer === undefined) return false;
      try {
        done({ status: answer.status, json: JSON.parse(answer.body) });
      } catch {
        done({ why: `the daemon answered ${answer.status} without JSON` });
      }
      return true;
    };
    const conn = connect(socket);
    conn.on('connect', () => conn.write(request));
    conn.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_ANSWER_BYTES) return done({ why: 'the daemon answered too much' });
      chunks.push(d);
      answered();
    });
    conn.on('error', (err: NodeJS.ErrnoException) => done({ why: `${socket}: ${err.code ?? err.message}` }));
    conn.on('close', () => {
      if (!answered()) done({ why: 'the daemon closed the connection before a complete answer' });
    });
  });
}

const READ_KINDS: ReadonlySet<string> = new Set<ReadKind>(['file', 'file-nofollow', 'dir', 'exists']);

/**
 * The digest of what the daemon's load read, as this process reads it now (CONFIG_READS_PATH lists
 * the paths; each is digested here): the daemon answers only when its load saw the same.
 */
async function currentReads(socket: string): Promise<{ digest: string } | { why: string }> {
  const listed = await exchange(socket, [`GET ${CONFIG_READS_PATH} HTTP/1.1`]);
  if ('why' in listed) return listed;
  const reads = isObject(listed.json) ? listed.json.reads : undefined;
  if (listed.status !== 200 || !Array.isArray(reads))
    return { why: `the daemon answered ${listed.status} to ${CONFIG_READS_PATH}` };
  const now: { kind: string; path: string; digest: string }[] = [];
  for (const r of reads) {
    if (!isObject(r) || typeof r.path !== 'string' || !READ_KINDS.has(r.kind as string))
      return { why: `the daemon's ${CONFIG_READS_PATH}: a malformed entry` };
    const kind = r.kind as ReadKind;
    now.push({ kind, path: r.path, digest: digestNow(kind, r.path) });
  }
  return { digest: readsDigest(now) };
}

/**
 * Sends one dispatch to the daemon on `socket`; `identity` names the configuration this adapter
 * would run (the daemon refuses another, and one whose files changed since it loaded them). Never
 * rejects: every failure is `unavailable`.
 */
export async function forwardDispatch(
  socket: string,
  event: string,
  input: Record<string, unknown>,
  identity: string | undefined,
): Promise<Forwarded> {
  const distrust = socketTrustProblem(socket);
  if (distrust !== undefined) return { kind: 'unavailable', why: distrust };
  const reads = identity === undefined ? undefined : await currentReads(socket);
  if (reads !== undefined && 'why' in reads) return { kind: 'unavailable', why: reads.why };
  const body = Buffer.from(JSON.stringify(input));
  const answer = await exchange(
    socket,
    [
      `POST /v1/dispatch/${encodeURIComponent(event)} HTTP/1.1`,
      'content-type: application/json',
      `content-length: ${body.length}`,
      ...(identity === undefined ? [] : [`${CONFIG_IDENTITY_HEADER}: ${identity}`]),
      ...(reads === undefined ? [] : [`${CONFIG_READS_HEADER}: ${reads.digest}`]),
    ],
    body,
  );
  if ('why' in answer) return { kind: 'unavailable', why: answer.why };
  if (answer.status !== 200) {
    const e = answer.json;
    const code = isObject(e) && isObject(e.error) ? String(e.error.code) : 'no error code';
    return { kind: 'unavailable', why: `the daemon answered ${answer.status} (${code})` };
  }
  const result = checkForwardedResult(answer.json);
  return typeof result === 'string'
    ? { kind: 'unavailable', why: `the daemon's result: ${result}` }
    : { kind: 'result', result };
}
