// `hookwarden audit verify` and `audit keygen`: the flags and the help text; ./audit.js runs them.

import type { Command } from 'commander';

export function registerAudit(program: Command, setExitCode: (code: number) => void): void {
  const audit = program
    .command('audit')
    .description('work with audit files written by --audit / the audit option');
  audit
    .command('verify')
    .description("check an audit file's chain and report the first edited, deleted or reordered record")
    .option('-k, --key <file>', 'the key the file was written with (--audit-key): checks authenticity')
    .argument('<file>', 'a JSONL audit file')
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      `
Every record carries seq and prev, so changing, deleting or moving a line breaks the chain.
Without --key (an unkeyed file, sha256 links): integrity only. It detects accidental corruption and
  naive edits, not a rewrite: anyone who can write the file can recompute every link.
With --key (a file written with --audit-key): authenticity. Each record's HMAC-SHA-256 must verify
  with the key, so without the key no record can be changed, added or re-chained. A keyed file needs
  its key to verify; an unkeyed file is refused with --key (a keyed file rewritten without the key
  looks like one).
A truncated tail still verifies: keep the printed head elsewhere (it changes with every record).
Exit status: 0 intact, 1 broken, unreadable or keyed without --key.

Examples:
  $ hookwarden audit verify audit.jsonl
  $ hookwarden audit verify /var/log/hookwarden/audit.jsonl --key /etc/hookwarden/audit.key`,
    )
    .action(async (file: string, flags) => {
      const { runAuditVerify } = await import('./audit.js');
      setExitCode(await runAuditVerify(file, flags));
    });
  audit
    .command('keygen')
    .description('write a fresh audit key (32 random bytes as hex) for --audit-key and audit verify --key')
    .requiredOption('-o, --out <file>', 'key file to create (mode 0600; missing directories are made 0700)')
    .addHelpText(
      'after',
      `
An existing file is never overwritten. A key file may also be written by hand: at least 32 random
bytes, raw or as hex or base64 text; it must be the file itself (no symlink) with mode 0600 or
stricter. Keep it out of every hook's reach: outside the sandbox root, and command hooks in isolation
"namespace" or runAs "nobody" (a process-mode hook runs as you and can read what you can).
Exit status: 0 written, 1 error.

Example:
  $ hookwarden audit keygen --out /etc/hookwarden/audit.key`,
    )
    .action(async (flags: { out: string }) => {
      const { runAuditKeygen } = await import('./audit.js');
      setExitCode(runAuditKeygen(flags));
    });
}
