// What `hookwarden serve` reads from its environment rather than its command line: settings
// operators rarely change, and values that may hold credentials (a command line is visible to every
// user: `ps`). Never passed on to a hook (HOOKWARDEN_* names are refused by inheritEnv).
import type { ExecutorOptions } from '../../executor/options.js';
import { UsageError } from '../usage-error.js';

/**
 * HOOKWARDEN_QUEUE_LOCK_MS: how soon a dead replica's job runs elsewhere (default 5 s: within 7.5 s). An
 * environment variable rather than a flag: operators rarely change it; the failover tests do.
 */
export function lockDurationFromEnv(): { lockDurationMs?: number } {
  const v = process.env.HOOKWARDEN_QUEUE_LOCK_MS;
  if (v === undefined) return {};
  if (!/^\d{3,7}$/.test(v))
    throw new UsageError(
      `HOOKWARDEN_QUEUE_LOCK_MS: expected milliseconds (100-3600000), got ${JSON.stringify(v)}`,
    );
  return { lockDurationMs: Number(v) };
}

export interface DecisionLogFlags {
  /** --decision-log <url> (else $HOOKWARDEN_DECISION_LOG_URL). */
  decisionLog?: string;
}

/** `HOOKWARDEN_DECISION_LOG_HEADERS`: `name=value` pairs, comma-separated (the sink's credentials). */
function headersFromEnv(value: string | undefined): Record<string, string> | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const out: Record<string, string> = {};
  for (const pair of value.split(',')) {
    const eq = pair.indexOf('=');
    if (eq <= 0)
      throw new UsageError(
        'HOOKWARDEN_DECISION_LOG_HEADERS: expected name=value pairs separated by commas, e.g. "authorization=Bearer …"',
      );
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

/**
 * The executor options with the decision-log sink of --decision-log (or $HOOKWARDEN_DECISION_LOG_URL)
 * added to the audit option, its headers from $HOOKWARDEN_DECISION_LOG_HEADERS.
 */
export function withDecisionLog<O extends Pick<ExecutorOptions, 'audit'>>(
  options: O,
  flags: DecisionLogFlags,
  env: NodeJS.ProcessEnv = process.env,
): O {
  const url = flags.decisionLog ?? (env.HOOKWARDEN_DECISION_LOG_URL || undefined);
  if (url === undefined) return options;
  const headers = headersFromEnv(env.HOOKWARDEN_DECISION_LOG_HEADERS);
  const decisionLog = { url, ...(headers === undefined ? {} : { headers }) };
  const audit = options.audit;
  if (typeof audit === 'function') return { ...options, audit: { onRecord: audit, decisionLog } };
  return { ...options, audit: { ...(typeof audit === 'string' ? { file: audit } : audit), decisionLog } };
}
