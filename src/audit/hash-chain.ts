// The audit file: append-only JSON lines, hash-chained. Every record carries `seq` (1, 2, …) and
// `prev`, the sha256 of the previous line's exact text, so an edited, deleted or reordered line
// breaks the chain at the next line; `verifyChain` finds the first break. Truncating the tail leaves
// a valid chain: anchor the head hash that verify prints somewhere else to detect that.
import { createHash } from 'node:crypto';
import { appendFileSync, closeSync, existsSync, fstatSync, fsyncSync, openSync, readSync } from 'node:fs';

export const GENESIS = `sha256:${'0'.repeat(64)}`;

export const lineHash = (line: string): string => `sha256:${createHash('sha256').update(line).digest('hex')}`;

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

/** Appends chained records to one file; continues the chain of an existing file. */
export class ChainedFile {
  #prev = GENESIS;
  #seq = 0;

  constructor(
    readonly path: string,
    readonly fsync: boolean,
  ) {
    const last = lastLine(path);
    if (last !== undefined) {
      let seq = Number.NaN;
      try {
        seq = (JSON.parse(last) as { seq?: unknown }).seq as number;
      } catch {}
      if (!Number.isSafeInteger(seq)) {
        throw new Error(
          `${path}: the last line is not a hookwarden audit record; refusing to extend the chain (use a new file)`,
        );
      }
      this.#seq = seq;
      this.#prev = lineHash(last);
    }
  }

  /** Writes the records (one write, before returning; fsync'd when asked). */
  append(records: readonly Record<string, unknown>[]): void {
    let text = '';
    for (const r of records) {
      const line = JSON.stringify({ seq: ++this.#seq, prev: this.#prev, ...r });
      this.#prev = lineHash(line);
      text += `${line}\n`;
    }
    if (text === '') return;
    if (!this.fsync) {
      appendFileSync(this.path, text, { mode: 0o600 });
      return;
    }
    const fd = openSync(this.path, 'a', 0o600);
    try {
      appendFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

export type ChainReport =
  | { ok: true; records: number; head: string }
  | { ok: false; records: number; line: number; problem: string };

/** Checks a whole audit text; reports the first break (1-based line number). */
export function verifyChain(text: string): ChainReport {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let prev = GENESIS;
  let prevSeq = 0;
  const seqs = new Set<unknown>();
  for (const line of lines) {
    try {
      seqs.add((JSON.parse(line) as { seq?: unknown }).seq);
    } catch {}
  }
  for (const [i, line] of lines.entries()) {
    const n = i + 1;
    let rec: { seq?: unknown; prev?: unknown };
    try {
      rec = JSON.parse(line) as typeof rec;
    } catch {
      return { ok: false, records: i, line: n, problem: `line ${n} is not JSON (edited or truncated)` };
    }
    if (!Number.isSafeInteger(rec.seq) || typeof rec.prev !== 'string') {
      return { ok: false, records: i, line: n, problem: `line ${n} is not an audit record (no seq/prev)` };
    }
    const seq = rec.seq as number;
    if (seq !== prevSeq + 1) {
      const what =
        seq <= prevSeq
          ? `records out of order: seq ${seq} after ${prevSeq} (lines reordered or duplicated)`
          : seqs.has(prevSeq + 1)
            ? `records out of order: seq ${seq} where ${prevSeq + 1} was expected, which appears later (lines reordered)`
            : `seq jumps from ${prevSeq} to ${seq}: ${seq - prevSeq - 1} record(s) deleted before line ${n}`;
      return { ok: false, records: i, line: n, problem: what };
    }
    if (rec.prev !== prev) {
      const what =
        n === 1
          ? 'line 1 does not start the chain'
          : `line ${n - 1} was edited (its hash no longer matches line ${n}'s prev)`;
      return { ok: false, records: i, line: n, problem: what };
    }
    prev = lineHash(line);
    prevSeq = seq;
  }
  return { ok: true, records: lines.length, head: prev };
}
