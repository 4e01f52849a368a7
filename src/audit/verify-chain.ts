// Verifying an audit file's chain (hash-chain.ts): the first break, which lines are verified, and in
// which mode. Without a key only an unkeyed file can be checked, and only for integrity; with the key
// a keyed file is checked for authenticity, and an unkeyed file is refused (a keyed file rewritten
// without the key looks like one).

import type { KeyObject } from 'node:crypto';
import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { type AuditKey, toAuditKey } from './audit-key.js';
import {
  type ChainMode,
  GENESIS,
  KEYED_GENESIS,
  lineHash,
  linkMode,
  macVerifies,
  splitMac,
} from './hash-chain.js';

export type ChainReport =
  | {
      ok: true;
      mode: ChainMode;
      /** Records checked (all of them). */
      records: number;
      /** The last link (`sha256:` of the last line, or its `hmac-sha256:` MAC): anchor it elsewhere. */
      head: string;
    }
  | {
      ok: false;
      /** The mode the file's first line declares (undefined: not recognisable). */
      mode: ChainMode | undefined;
      /** Lines 1…records are verified; nothing from `line` on is. */
      records: number;
      /** The first line the chain does not vouch for. */
      line: number;
      problem: string;
      /** Set when the file is keyed and no key was given. */
      needsKey?: true;
    };

export interface VerifyOptions {
  /** The audit key of a keyed file (a key file path, the bytes or a secret KeyObject). */
  key?: AuditKey;
}

type Parsed = { seq: number; prev: string } | { problem: string };

function parse(line: string, n: number): Parsed {
  let rec: { seq?: unknown; prev?: unknown };
  try {
    rec = JSON.parse(line) as typeof rec;
  } catch {
    return { problem: `line ${n} is not JSON (edited or truncated)` };
  }
  if (
    typeof rec !== 'object' ||
    rec === null ||
    !Number.isSafeInteger(rec.seq) ||
    typeof rec.prev !== 'string'
  )
    return { problem: `line ${n} is not an audit record (no seq/prev)` };
  return { seq: rec.seq as number, prev: rec.prev };
}

/** Why `seq` cannot follow `prevSeq` at line `n` (undefined: it can). */
function seqProblem(
  seq: number,
  prevSeq: number,
  n: number,
  later: ReadonlySet<unknown>,
): string | undefined {
  if (seq === prevSeq + 1) return undefined;
  if (seq <= prevSeq)
    return `records out of order: seq ${seq} after ${prevSeq} (lines reordered or duplicated)`;
  return later.has(prevSeq + 1)
    ? `records out of order: seq ${seq} where ${prevSeq + 1} was expected, which appears later (lines reordered)`
    : `seq jumps from ${prevSeq} to ${seq}: ${seq - prevSeq - 1} record(s) deleted before line ${n}`;
}

/**
 * Checks a whole audit text; reports the first break (1-based line numbers). With `key`, the file must
 * be keyed with that key; without, it must be unkeyed (a keyed file reports `needsKey`).
 */
const VERIFY_CHAIN_OPTION_KEYS = optionKeys<VerifyOptions>()(['key']);

export function verifyChain(text: string, options: VerifyOptions = {}): ChainReport {
  refuseUnknownOptions(options, VERIFY_CHAIN_OPTION_KEYS, 'verifyChain');
  let key: KeyObject | undefined;
  try {
    key = options.key === undefined ? undefined : toAuditKey(options.key);
  } catch (err) {
    throw new HookwardenError('invalid_options', (err as Error).message, { cause: err });
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const seqs = new Set<unknown>();
  for (const line of lines) {
    try {
      seqs.add((JSON.parse(line) as { seq?: unknown }).seq);
    } catch {}
  }
  const first = lines.length > 0 ? parse(lines[0]!, 1) : undefined;
  const mode = first !== undefined && 'prev' in first ? linkMode(first.prev) : undefined;
  const broken = (line: number, problem: string, records = line - 1) =>
    ({ ok: false, mode, records, line, problem }) as const;
  if (key === undefined && mode === 'hmac-sha256') {
    return {
      ...broken(1, 'the file is keyed (HMAC-SHA-256 links): only its key can verify it (--key <file>)', 0),
      needsKey: true,
    };
  }
  if (key !== undefined && mode === 'sha256') {
    return broken(
      1,
      'the file is not keyed: its links are plain sha256, which anyone who can write the file can recompute, so this key authenticates none of it (a keyed file rewritten without the key looks like this)',
      0,
    );
  }
  return key === undefined ? verifyUnkeyed(lines, seqs, broken) : verifyKeyed(lines, seqs, key, broken);
}

type Broken = (line: number, problem: string, records?: number) => ChainReport;

function verifyUnkeyed(lines: string[], seqs: ReadonlySet<unknown>, broken: Broken): ChainReport {
  let prev = GENESIS;
  let prevSeq = 0;
  // A line is vouched for only by the next line's prev: a break found at line n leaves line n-1
  // unverified too (it was edited, or its successor was deleted, moved or edited).
  const at = (n: number, problem: string) => broken(Math.max(1, n - 1), problem, Math.max(0, n - 2));
  for (const [i, line] of lines.entries()) {
    const n = i + 1;
    const rec = parse(line, n);
    if ('problem' in rec) return at(n, rec.problem);
    const mode = linkMode(rec.prev);
    if (mode !== 'sha256')
      return at(
        n,
        `line ${n}'s prev is not a sha256 link (${mode === 'hmac-sha256' ? 'a keyed line in an unkeyed file: spliced in' : 'edited'})`,
      );
    const seqWrong = seqProblem(rec.seq, prevSeq, n, seqs);
    if (seqWrong !== undefined) return at(n, seqWrong);
    if (rec.prev !== prev) {
      return at(
        n,
        n === 1
          ? 'line 1 does not start the chain (its prev is not the genesis value)'
          : `line ${n - 1} was edited, or line ${n}'s prev was (line ${n}'s prev no longer matches line ${n - 1}'s sha256)`,
      );
    }
    prev = lineHash(line);
    prevSeq = rec.seq;
  }
  return { ok: true, mode: 'sha256', records: lines.length, head: prev };
}

function verifyKeyed(
  lines: string[],
  seqs: ReadonlySet<unknown>,
  key: KeyObject,
  broken: Broken,
): ChainReport {
  let prev = KEYED_GENESIS;
  let prevSeq = 0;
  for (const [i, line] of lines.entries()) {
    const n = i + 1;
    const rec = parse(line, n);
    if ('problem' in rec) return broken(n, rec.problem);
    const mode = linkMode(rec.prev);
    if (mode !== 'hmac-sha256')
      return broken(
        n,
        `line ${n}'s prev is not an hmac-sha256 link (${mode === 'sha256' ? 'an unkeyed line in a keyed file: spliced in or rewritten without the key' : 'edited'})`,
      );
    if (!macVerifies(key, line)) {
      if (n === 1 && !lines.some((l) => macVerifies(key, l)))
        return broken(
          1,
          'no record verifies with this key: it is the wrong key (or every record was rewritten)',
        );
      return broken(
        n,
        splitMac(line) === undefined
          ? `line ${n} has no MAC (edited, or written without the key)`
          : `line ${n} was edited (its MAC does not verify with this key)`,
      );
    }
    const seqWrong = seqProblem(rec.seq, prevSeq, n, seqs);
    if (seqWrong !== undefined) return broken(n, seqWrong);
    if (rec.prev !== prev) {
      return n === 1
        ? broken(1, 'line 1 does not start the chain (its prev is not the genesis value)')
        : broken(
            n,
            `line ${n} does not follow line ${n - 1} (its prev is not line ${n - 1}'s MAC): records were deleted, reordered or taken from another file`,
          );
    }
    prev = splitMac(line)!.mac;
    prevSeq = rec.seq;
  }
  return { ok: true, mode: 'hmac-sha256', records: lines.length, head: prev };
}
