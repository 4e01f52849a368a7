// The request line is formatted by hand (server/logging.ts, for speed): it must be the line pino
// itself writes for the same fields, byte for byte apart from the time, for any field values a
// request can bring (a route or tenant with quotes, newlines, control characters, odd Unicode).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createServiceLogger,
  logRequest,
  type RequestLogFields,
  requestLevel,
} from '../../src/server/logging.js';

function capture(level = 'info') {
  const lines: string[] = [];
  const service = createServiceLogger(level, { write: (s: string) => void lines.push(s) });
  return { lines, logger: service.logger };
}

/** pino's own line for the fields (what logRequest wrote before it formatted the line itself). */
function pinoLine(fields: RequestLogFields): string {
  const { lines, logger } = capture();
  logger[requestLevel(fields)](
    { ...fields, durationMs: Math.round(fields.durationMs * 1000) / 1000 },
    'request',
  );
  return lines[0]!;
}

const withoutTime = (line: string) => line.replace(/"time":"[^"]*"/, '"time":"T"');

const text = fc.string({ unit: 'binary', maxLength: 40 });
const fieldsArb: fc.Arbitrary<RequestLogFields> = fc.record(
  {
    reqId: text,
    method: text,
    route: text,
    status: fc.integer({ min: 100, max: 599 }),
    durationMs: fc.double({ min: 0, max: 1e6, noNaN: true }),
    tenant: text,
    event: text,
    decision: text,
    errorCode: fc.oneof(text, fc.constantFrom('draining', 'closed', 'internal_error')),
  },
  { requiredKeys: ['reqId', 'method', 'route', 'status', 'durationMs'] },
);

describe('the request log line', () => {
  it('is the line pino writes for the same fields', () => {
    fc.assert(
      fc.property(fieldsArb, (fields) => {
        const { lines, logger } = capture();
        logRequest(logger, fields);
        expect(lines).toHaveLength(1);
        expect(withoutTime(lines[0]!)).toBe(withoutTime(pinoLine(fields)));
        const parsed = JSON.parse(lines[0]!) as Record<string, unknown>;
        expect(parsed.msg).toBe('request');
        expect(Date.parse(parsed.time as string)).not.toBeNaN();
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the level rule: a 5xx is an error line, and a level above it writes nothing', () => {
    const base = { reqId: 'r', method: 'POST', route: '/v1/dispatch/:event', durationMs: 1 };
    const warn = capture('warn');
    logRequest(warn.logger, { ...base, status: 200 });
    expect(warn.lines).toEqual([]);
    logRequest(warn.logger, { ...base, status: 503 });
    expect(JSON.parse(warn.lines[0]!).level).toBe('error');
    logRequest(warn.logger, { ...base, status: 500, errorCode: 'internal_error' });
    expect(JSON.parse(warn.lines[1]!).level).toBe('error');
  });

  it('writes the 503s a drain answers on purpose (draining, closed) at info, not as errors', () => {
    const base = { reqId: 'r', method: 'GET', route: '/readyz', durationMs: 1, status: 503 };
    const warn = capture('warn');
    logRequest(warn.logger, { ...base, errorCode: 'draining' });
    logRequest(warn.logger, { ...base, errorCode: 'closed' });
    expect(warn.lines).toEqual([]);
    const info = capture('info');
    logRequest(info.logger, { ...base, errorCode: 'draining' });
    expect(JSON.parse(info.lines[0]!)).toMatchObject({ level: 'info', status: 503, errorCode: 'draining' });
    const fatal = capture('fatal');
    logRequest(fatal.logger, { ...base, status: 500 });
    expect(fatal.lines).toEqual([]);
  });

  it('writes null for a duration that is not a number', () => {
    const { lines, logger } = capture();
    logRequest(logger, { reqId: 'r', method: 'GET', route: 'x', status: 200, durationMs: Number.NaN });
    expect(JSON.parse(lines[0]!).durationMs).toBeNull();
  });
});
