// The service's logs: pino JSON lines on stderr. One line per request (see `requestLogLine`), plus
// start-up, reload, configuration warnings and shutdown. A request's line carries its route, status,
// tenant, duration and decision — never a body, a header or a token: an input can hold a user's
// secrets and a token is one. Written asynchronously in batches (a request never waits for
// stderr); flushed before the process exits.
import { type DestinationStream, type Logger, pino } from 'pino';
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
  // Lines are gathered into writes of 4 KiB or every 250 ms, whichever comes first: one write(2)
  // per request would cost more than a fast-path dispatch.
  const boom = dest === undefined ? pino.destination({ dest: 2, sync: false, minLength: 4096 }) : undefined;
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
  /** The token's tenant; `null` for admin tokens or without --auth; absent before authentication. */
  readonly tenant?: string | null;
  readonly event?: string;
  readonly decision?: string;
  readonly errorCode?: string;
}

export function logRequest(logger: Logger, fields: RequestLogFields): void {
  const level = fields.status >= 500 ? 'error' : 'info';
  logger[level]({ ...fields, durationMs: Math.round(fields.durationMs * 1000) / 1000 }, 'request');
}

/** A configuration problem as a log line (file, JSON path, message), in place of the CLI's stderr text. */
export function logDiagnostic(logger: Logger, d: Diagnostic): void {
  logger[d.severity === 'error' ? 'error' : 'warn'](
    { file: d.file, path: d.path, skipped: d.skipped },
    d.message,
  );
}
