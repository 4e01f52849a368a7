// Small parts of createExecutor: the audit sink opened at the boundary (a bad option is a typed
// error) and the default warning printer.
import { AuditLog } from '../audit/audit-log.js';
import { type Diagnostic, formatDiagnostic } from '../config/diagnostics.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import type { ResolvedOptions } from './options.js';

export function openAudit(option: NonNullable<ResolvedOptions['audit']>): AuditLog {
  try {
    return new AuditLog(option);
  } catch (err) {
    throw new HookwardenError('invalid_options', `audit: ${(err as Error).message}`, { cause: err });
  }
}

export function defaultWarning(d: Diagnostic): void {
  process.stderr.write(`hookwarden: ${d.severity}: ${formatDiagnostic(d)}\n`);
}
