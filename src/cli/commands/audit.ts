// `hookwarden audit verify <file>`: checks an audit file's hash chain and reports the first break.
import { readFile } from 'node:fs/promises';
import { verifyChain } from '../../audit/hash-chain.js';
import { UsageError } from '../usage-error.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export async function runAuditVerify(file: string, flags: { json?: boolean }): Promise<number> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const report = verifyChain(text);
  if (flags.json === true) process.stdout.write(`${JSON.stringify({ file, ...report })}\n`);
  else if (report.ok) {
    process.stdout.write(
      `ok: ${file}: ${plural(report.records, 'record')}, chain intact\nhead: ${report.head}\n`,
    );
    process.stdout.write('(keep the head hash elsewhere to detect a truncated tail later)\n');
  } else {
    process.stdout.write(
      `broken: ${file}: ${report.problem}\n${plural(report.records, 'record')} verified before line ${report.line}\n`,
    );
  }
  return report.ok ? 0 : 1;
}
