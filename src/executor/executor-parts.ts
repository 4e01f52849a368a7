// Small parts of createExecutor: the audit sinks opened at the boundary (a bad option is a typed
// error) — the audit log, and the decision-log sink whose problems go to `decision-log` listeners
// or, with none, to the warnings — and the default warning printer.
import { AuditLog, type AuditOption } from '../audit/audit-log.js';
import { DecisionLog, type DecisionLogProblem } from '../audit/decision-log.js';
import { resolveDecisionLog } from '../audit/decision-log-options.js';
import type { HookEvents } from '../audit/hook-events.js';
import { type Diagnostic, formatDiagnostic } from '../config/diagnostics.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import type { HookPool } from '../pool/pool.js';

export function openAudit(
  option: AuditOption | undefined,
  events: HookEvents,
  warn: (d: Diagnostic) => void,
): { audit: AuditLog | undefined; decisions: DecisionLog | undefined } {
  if (option === undefined) return { audit: undefined, decisions: undefined };
  try {
    const sink = typeof option === 'object' ? option.decisionLog : undefined;
    const settings = sink === undefined ? undefined : resolveDecisionLog(sink);
    const report = (p: DecisionLogProblem) => {
      if (events.has('decision-log')) events.emit('decision-log', p);
      else if (p.kind !== 'recovered')
        warn({
          severity: 'warning',
          file: p.sink,
          path: 'audit.decisionLog',
          message: p.message,
          skipped: false,
        });
    };
    const audit = new AuditLog(option);
    return { audit, decisions: settings === undefined ? undefined : new DecisionLog(settings, report) };
  } catch (err) {
    throw new HookwardenError('invalid_options', `audit: ${(err as Error).message}`, { cause: err });
  }
}

export function defaultWarning(d: Diagnostic): void {
  process.stderr.write(`hookwarden: ${d.severity}: ${formatDiagnostic(d)}\n`);
}

/** The last step of close(): the pool (every hook stopped) and the decision log's last batches. */
export async function closePool(
  pool: HookPool,
  decisions: DecisionLog | undefined,
  signal: AbortSignal | undefined,
): Promise<void> {
  await Promise.all([pool.close(), decisions?.close(undefined, signal)]);
}
