// The service's logs: pino JSON lines on stderr. One line per request (see `requestLogLine`), plus
// start-up, reload, configuration warnings and shutdown. A request's line carries its route, status,
// tenant, duration and decision — never a body, a header or a token: an input can hold a user's
// secrets and a token is one. Written asynchronously in batches (a request never waits for
// stderr); flushed before the process exits.
import { type DestinationStream, type Logger, pino } from 'pino';
import type { DecisionLogProblem } from '../audit/decision-log.js';
import type { Diagnostic } from '../config/diagnostics.js';

export type { Logger } from 'pino';

/** Longest a log line waits in the buffer. */
const FLUSH_EVERY_MS = 250;

export interface ServiceLogger {
  readonly logger: Logger;
  /** Writes what is buffered and stops the periodic flush (before exit). */
  readonly flush: () => void;
}

/** A logger writing JSON lines to `dest` (default: stderr, asynchronously). */
export function createServiceLogger(level = 'info', dest?: DestinationStream): ServiceLogger {
  // Lines are gathered into writes of 12 KiB (sonic-boom takes less than its 16 KiB maxWrite) or every 250 ms, whichever comes first: one write(2)
  // per request would cost more than a fast-path dispatch.
  const boom = dest === undefined ? pino.destination({ dest: 2, sync: false, minLength: 12_288 }) : undefined;
  const stream = dest ?? boom!;
  const timer =
    boom === undefined
      ? undefined
      : setInterval(() => {
          try {
            boom.flush();
          } catch {
            // Not open yet, or a write in progress: the next tick flushes.
          }
        }, FLUSH_EVERY_MS).unref();
  const logger = pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    stream,
  );
  REQUEST_LINES.set(logger, requestLineWriter(logger, stream));
  const flush = () => {
    clearInterval(timer);
    const s = stream as { flushSync?: () => void };
    try {
      s.flushSync?.();
    } catch {
      // Nothing buffered yet (sonic-boom throws before its first open); nothing to lose.
    }
  };
  return { logger, flush };
}

/** What one request's log line holds. */
export interface RequestLogFields {
  readonly reqId: string;
  readonly method: string;
  /** The route pattern (`/v1/dispatch/:event`), or `unmatched`. */
  readonly route: string;
  readonly status: number;
  readonly durationMs: number;
  /**
   * The token's tenant as the metrics name it (contract/tenant-label.ts): its id, `other` for one the
   * configuration does not name, `none` for admin tokens or without --auth; absent before
   * authentication.
   */
  readonly tenant?: string;
  readonly event?: string;
  readonly decision?: string;
  readonly errorCode?: string;
}

/** Answers the server gives on purpose while it stops (503 `draining`, `closed`): not failures. */
const EXPECTED_5XX: ReadonlySet<string> = new Set(['draining', 'closed']);

/** A request's line is an error line when the server failed it (a 5xx it did not mean), else info. */
export function requestLevel(f: Pick<RequestLogFields, 'status' | 'errorCode'>): 'error' | 'info' {
  return f.status >= 500 && !(f.errorCode !== undefined && EXPECTED_5XX.has(f.errorCode)) ? 'error' : 'info';
}

export function logRequest(logger: Logger, fields: RequestLogFields): void {
  const fast = REQUEST_LINES.get(logger);
  if (fast !== undefined) {
    fast(fields);
    return;
  }
  const level = requestLevel(fields);
  logger[level]({ ...fields, durationMs: roundMs(fields.durationMs) }, 'request');
}

const roundMs = (ms: number) => Math.round(ms * 1000) / 1000;

/** The request-line writer of each service logger (createServiceLogger). */
const REQUEST_LINES = new WeakMap<Logger, (fields: RequestLogFields) => void>();

/**
 * The request line, formatted here rather than by pino: the line pino would write (same fields, same
 * order, same level rule), for a fifth of its CPU. pino's generic serialisation (a merge of the
 * base, the bindings and the object, then a key-by-key walk) and its ISO time per line were a fifth
 * of the server's CPU on the fast path (bench/README.md, serve). The fields are strings, numbers or
 * null, so each is one JSON.stringify; the time is formatted once per millisecond.
 */
function requestLineWriter(logger: Logger, stream: DestinationStream): (fields: RequestLogFields) => void {
  const head = (level: string) => `{"level":"${level}","time":"`;
  const pid = `","pid":${process.pid},"reqId":`;
  const info = head('info');
  const error = head('error');
  let lastMs = -1;
  let lastIso = '';
  return (f) => {
    const isError = requestLevel(f) === 'error';
    if (!logger.isLevelEnabled(isError ? 'error' : 'info')) return;
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      lastIso = new Date(now).toISOString();
    }
    let line = `${isError ? error : info}${lastIso}${pid}${JSON.stringify(f.reqId)},"method":${JSON.stringify(f.method)},"route":${JSON.stringify(f.route)},"status":${f.status},"durationMs":${Number.isFinite(f.durationMs) ? roundMs(f.durationMs) : null}`;
    if (f.tenant !== undefined) line += `,"tenant":${JSON.stringify(f.tenant)}`;
    if (f.event !== undefined) line += `,"event":${JSON.stringify(f.event)}`;
    if (f.decision !== undefined) line += `,"decision":${JSON.stringify(f.decision)}`;
    if (f.errorCode !== undefined) line += `,"errorCode":${JSON.stringify(f.errorCode)}`;
    stream.write(`${line},"msg":"request"}\n`);
  };
}

/**
 * A configuration problem as a log line (file, JSON path, message), in place of the CLI's stderr
 * text; one about a tenant names it as the metrics do (`tenantName`).
 */
export function logDiagnostic(logger: Logger, d: Diagnostic, tenantName?: (tenant: string) => string): void {
  const tenant = d.tenant === undefined ? {} : { tenant: tenantName?.(d.tenant) ?? d.tenant };
  logger[d.severity === 'error' ? 'error' : 'warn'](
    { file: d.file, path: d.path, skipped: d.skipped, ...tenant },
    d.message,
  );
}

/** The decision-log sink failing, dropping events or answering again: warn, or info on its return. */
export function logDecisionLog(logger: Logger, p: DecisionLogProblem): void {
  const { sent, dropped, failedUploads, buffered } = p.stats;
  logger[p.kind === 'recovered' ? 'info' : 'warn'](
    { component: 'decision-log', sink: p.sink, sent, dropped, failedUploads, buffered },
    p.message,
  );
}
