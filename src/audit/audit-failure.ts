// How a failed audit append reads in the executor's log (onWarning): one error diagnostic naming the
// audit file, the dispatch, what went wrong and what became of the records.
import type { Diagnostic } from '../config/diagnostics.js';
import type { AuditFailedEvent } from './hook-events.js';

export function auditFailureDiagnostic(e: AuditFailedEvent): Diagnostic {
  const about =
    e.event === undefined ? '' : ` (${e.event}${e.tenant === undefined ? '' : `, tenant ${e.tenant}`})`;
  return {
    severity: 'error',
    file: e.file ?? '<audit onRecord>',
    path: '',
    message: `audit records could not be written${about}: ${e.message}; ${e.pending} kept for the next append${e.dropped > 0 ? `, ${e.dropped} dropped` : ''}${e.denied ? '; the dispatch denied (audit.required)' : ''}`,
    skipped: false,
    ...(e.tenant !== undefined ? { tenant: e.tenant } : {}),
  };
}
