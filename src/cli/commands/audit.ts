// `hookwarden audit verify <file> [--key <file>]`: checks an audit file's chain and reports the first
// break; `hookwarden audit keygen --out <file>`: writes a key for keyed audit files.
import type { KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { readAuditKeyFile, writeAuditKeyFile } from '../../audit/audit-key.js';
import { type ChainReport, verifyChain } from '../../audit/verify-chain.js';
import { UsageError } from '../usage-error.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const out = (text: string) => process.stdout.write(`${text}\n`);

/** Reads an audit key file for a CLI flag; problems are usage errors that name the flag. */
export function readKeyFlag(path: string, flag: string): KeyObject {
  try {
    return readAuditKeyFile(path);
  } catch (err) {
    throw new UsageError(`${flag}: ${(err as Error).message}`);
  }
}

function printReport(file: string, report: ChainReport): void {
  if (report.ok && report.mode === 'hmac-sha256') {
    out(
      `ok: ${file}: ${plural(report.records, 'record')}, authentic (keyed: every record's HMAC-SHA-256 verifies with this key)`,
    );
    out(`head: ${report.head}`);
    out('(keep the head elsewhere to detect a truncated tail later: it changes with every record)');
  } else if (report.ok) {
    out(`ok: ${file}: ${plural(report.records, 'record')}, chain intact (unkeyed: sha256 links)`);
    out(`head: ${report.head}`);
    out('integrity only: this detects accidental corruption and naive edits, not a rewrite; anyone who');
    out('can write the file can recompute every link. For authenticity, write it with a key (--audit-key)');
    out('and verify with --key. Keep the head elsewhere to detect a truncated tail later.');
  } else if (report.needsKey === true) {
    out(`needs key: ${file} is keyed (HMAC-SHA-256 links); only its key can verify it:`);
    out(`  hookwarden audit verify ${file} --key <key file>`);
  } else {
    out(`broken: ${file}: ${report.problem}`);
    const verified =
      report.records === 0
        ? 'no line'
        : report.records === 1
          ? 'line 1 (1 record)'
          : `lines 1–${report.records} (${report.records} records)`;
    out(`verified: ${verified}; not verified: line ${report.line} onwards`);
  }
}

export async function runAuditVerify(file: string, flags: { json?: boolean; key?: string }): Promise<number> {
  const key = flags.key === undefined ? undefined : readKeyFlag(flags.key, '--key');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const report = verifyChain(text, key === undefined ? {} : { key });
  if (flags.json === true) out(JSON.stringify({ file, ...report }));
  else printReport(file, report);
  return report.ok ? 0 : 1;
}

export function runAuditKeygen(flags: { out: string }): number {
  try {
    writeAuditKeyFile(flags.out);
  } catch (err) {
    throw new UsageError(`--out: ${(err as Error).message}`);
  }
  out(`audit key: ${flags.out} (32 random bytes as hex, mode 0600)`);
  out(`write:     hookwarden dispatch … --audit audit.jsonl --audit-key ${flags.out}`);
  out(`verify:    hookwarden audit verify audit.jsonl --key ${flags.out}`);
  out("Keep it out of every hook's reach: outside the sandbox root, and command hooks in isolation");
  out('"namespace" or runAs "nobody" (a process-mode hook runs as you and can read what you can).');
  return 0;
}
