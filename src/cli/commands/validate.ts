// `hookwarden validate <config>…`: every problem with its file and JSON path; exit 1 on errors
// (and on warnings with --strict).
import { formatDiagnostic } from '../../config/diagnostics.js';
import { validateConfig } from '../../executor/validate.js';
import { UsageError } from '../usage-error.js';

export interface ValidateFlags {
  policy?: string[];
  strict?: boolean;
  json?: boolean;
}

export async function runValidate(files: string[], flags: ValidateFlags): Promise<number> {
  if (files.length === 0 && (flags.policy ?? []).length === 0)
    throw new UsageError('validate needs a config file or --policy <file>; see `hookwarden validate --help`');
  const report = await validateConfig({ config: files, policy: flags.policy ?? [] });
  const failed =
    report.errorCount > 0 ||
    report.policyFailures.length > 0 ||
    (flags.strict === true && report.warningCount > 0);
  if (flags.json === true) {
    process.stdout.write(`${JSON.stringify({ ok: !failed, ...report }, null, 2)}\n`);
    return failed ? 1 : 0;
  }
  for (const d of report.diagnostics) process.stdout.write(`${d.severity}: ${formatDiagnostic(d)}\n`);
  for (const p of report.policyFailures)
    process.stdout.write(`error: ${p} → deny-capable events will deny\n`);
  for (const p of report.packs) {
    if (p.refusal !== undefined) continue;
    const signed = p.verifiedBy === undefined ? '' : `, signed by ${p.verifiedBy}`;
    process.stdout.write(
      `pack: "${p.name}" ${p.version} (${p.scope}) verified: ${p.dir}, ${p.digest}${signed}\n`,
    );
  }
  const summary = `${report.hookCount} hook${report.hookCount === 1 ? '' : 's'} loaded; ${report.errorCount} error${report.errorCount === 1 ? '' : 's'}, ${report.warningCount} warning${report.warningCount === 1 ? '' : 's'}`;
  process.stdout.write(`${failed ? 'invalid' : 'ok'}: ${summary}\n`);
  return failed ? 1 : 0;
}
