// The audit file: append-only JSON lines, chained. Every record carries `seq` (1, 2, …) and `prev`.
// Unkeyed (`sha256`): `prev` is the sha256 of the previous line's exact text — integrity against
// accidental corruption and naive edits, not authenticity (anyone who can write the file can
// recompute it). Keyed (`hmac-sha256`): each line ends with `mac`, the HMAC-SHA-256 under the audit key
// of the line without it, and `prev` is the previous line's `mac`: without the key no line can be
// changed, added or re-chained, and every link says which mode the file uses. `verifyChain`
// (verify-chain.ts) finds the first break. Truncating the tail leaves a valid chain: anchor the head.
import { createHash, createHmac, type KeyObject, timingSafeEqual } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fstatSync, fsyncSync, openSync, readSync } from 'node:fs';

export type ChainMode = 'sha256' | 'hmac-sha256';

export const GENESIS = `sha256:${'0'.repeat(64)}`;
export const KEYED_GENESIS = `hmac-sha256:${'0'.repeat(64)}`;

export const lineHash = (line: string): string => `sha256:${createHash('sha256').update(line).digest('hex')}`;

/** The HMAC-SHA-256 of a keyed line's body (the line without its `mac`). */
const bodyMac = (key: KeyObject, body: string): string =>
  `hmac-sha256:${createHmac('sha256', key).update(body).digest('hex')}`;

/** The mode a record's `prev` declares. */
export const linkMode = (prev: string): ChainMode | undefined =>
  prev.startsWith('hmac-sha256:') ? 'hmac-sha256' : prev.startsWith('sha256:') ? 'sha256' : undefined;

/** `,"mac":"hmac-sha256:<64 hex>"}`: how every keyed line ends. */
const MAC_TAIL = /^,"mac":"(hmac-sha256:[0-9a-f]{64})"\}$/;
const MAC_TAIL_LENGTH = ',"mac":"hmac-sha256:"}'.length + 64;

/** A keyed line's body (what its MAC covers) and MAC; undefined when it does not end with a MAC. */
export function splitMac(line: string): { body: string; mac: string } | undefined {
  const m = MAC_TAIL.exec(line.slice(-MAC_TAIL_LENGTH));
  if (m === null || line.length <= MAC_TAIL_LENGTH) return undefined;
  return { body: `${line.slice(0, -MAC_TAIL_LENGTH)}}`, mac: m[1]! };
}

/** Whether `line` carries a MAC that verifies under `key` (constant-time comparison). */
export function macVerifies(key: KeyObject, line: string): boolean {
  const parts = splitMac(line);
  if (parts === undefined) return false;
  const expected = Buffer.from(bodyMac(key, parts.body));
  const actual = Buffer.from(parts.mac);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The last line of a file (reads only its tail). */
function lastLine(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    let chunk = 64 * 1024;
    for (;;) {
      const start = Math.max(0, size - chunk);
      const buf = Buffer.alloc(size - start);
      readSync(fd, buf, 0, buf.length, start);
      const text = buf.toString('utf8').replace(/\n+$/, '');
      const nl = text.lastIndexOf('\n');
      if (nl >= 0 || start === 0) return (nl >= 0 ? text.slice(nl + 1) : text) || undefined;
      chunk *= 4;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Appends chained records to one file; continues the chain of an existing file in the same mode
 * (keyed with the same key, or unkeyed), and refuses anything else.
 */
export class ChainedFile {
  #prev: string;
  #seq = 0;
  readonly #key: KeyObject | undefined;

  constructor(
    readonly path: string,
    readonly fsync: boolean,
    key?: KeyObject,
  ) {
    this.#key = key;
    this.#prev = key === undefined ? GENESIS : KEYED_GENESIS;
    const last = lastLine(path);
    if (last === undefined) return;
    let rec: { seq?: unknown; prev?: unknown } = {};
    try {
      rec = JSON.parse(last) as typeof rec;
    } catch {}
    if (!Number.isSafeInteger(rec.seq) || typeof rec.prev !== 'string') {
      throw new Error(
        `${path}: the last line is not a hookwarden audit record; refusing to extend the chain (use a new file)`,
      );
    }
    const mode = linkMode(rec.prev);
    if (key === undefined && mode === 'hmac-sha256') {
      throw new Error(
        `${path} is a keyed audit file (HMAC-SHA-256 links); give its key (audit.key, --audit-key) or use a new file`,
      );
    }
    if (key !== undefined && mode !== 'hmac-sha256') {
      throw new Error(
        `${path} is an unkeyed audit file (sha256 links); a keyed chain cannot continue it (a keyed verify would reject its first records): use a new file`,
      );
    }
    if (key !== undefined && !macVerifies(key, last)) {
      throw new Error(
        `${path}: the last record's MAC does not verify with this key (another key, or the line was edited); refusing to extend the chain: give the file's own key, or use a new file`,
      );
    }
    this.#seq = rec.seq as number;
    this.#prev = key === undefined ? lineHash(last) : splitMac(last)!.mac;
  }

  /**
   * Writes the records (one write, before returning; fsync'd when asked). The chain moves on only
   * once the write succeeded: after a failure (EMFILE, ENOSPC, an unwritable path) the same records
   * can be appended again and the chain stays unbroken.
   */
  append(records: readonly Record<string, unknown>[]): void {
    let text = '';
    let seq = this.#seq;
    let prev = this.#prev;
    for (const r of records) {
      const body = JSON.stringify({ seq: ++seq, prev, ...r });
      let line = body;
      if (this.#key === undefined) prev = lineHash(line);
      else {
        prev = bodyMac(this.#key, body);
        line = `${body.slice(0, -1)},"mac":"${prev}"}`;
      }
      text += `${line}\n`;
    }
    if (text === '') return;
    if (!this.fsync) appendFileSync(this.path, text, { mode: 0o600 });
    else {
      const fd = openSync(this.path, 'a', 0o600);
      try {
        appendFileSync(fd, text);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    this.#seq = seq;
    this.#prev = prev;
  }
}
