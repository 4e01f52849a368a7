// Every error answer of `serve` is the documented `{"error": {code, message}}` envelope, whoever
// writes it — a route, fastify's router (a malformed URL, a path over its parameter length), Node's
// HTTP parser (a bad request line, a head over --max-header-bytes), CONNECT — echoes at most a capped
// part of the path, and is logged (one line) and counted (hookwarden_http_requests_total).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ERROR_CODES, API_ERRORS, type ApiErrorCode } from '../../src/server/errors.js';
import { ECHO_MAX } from '../../src/server/framework-errors.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { type LiveServer, rawExchange, startServe, writeAuthFile } from '../helpers/serve.js';

const dir = tempDir('hw-errors-');
const config = writeConfig(dir, 'hooks.json', { hooks: {} });
const auth = writeAuthFile(dir, ['acme', 'admin']);
let server: LiveServer;
let port: number;

beforeAll(async () => {
  server = await startServe([
    '-c',
    config,
    '--listen',
    '127.0.0.1:0',
    '--auth',
    auth.path,
    '--max-header-bytes',
    '8192',
  ]);
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  expect((await server.stop()).code).toBe(0);
});

/** One request over raw TCP; the answer's status, head and body (the server closes). */
async function raw(request: string): Promise<{ status: number; head: string; body: string }> {
  const { status, text } = await rawExchange(port, [request]);
  const at = text.indexOf('\r\n\r\n');
  return { status, head: text.slice(0, at), body: at < 0 ? '' : text.slice(at + 4) };
}

const req = (line: string, headers: Record<string, string> = {}, body = '') =>
  `${line}\r\nHost: x\r\nConnection: close\r\n${Object.entries({
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n${body}`;
const long = 'A'.repeat(5000);
const json = { 'content-type': 'application/json' };

const CASES: [string, string, number, string][] = [
  ['a malformed %-escape', req('POST /v1/dispatch/%ZZ HTTP/1.1', json, '{}'), 400, 'invalid_input'],
  [
    'a path parameter over 100 characters',
    req(`POST /v1/dispatch/${long} HTTP/1.1`, json, '{}'),
    414,
    'uri_too_long',
  ],
  ['an unknown long path', req(`GET /${long} HTTP/1.1`), 404, 'not_found'],
  ['GET on a POST route', req('GET /v1/dispatch/BeforeTool HTTP/1.1'), 405, 'method_not_allowed'],
  ['DELETE on /healthz', req('DELETE /healthz HTTP/1.1'), 405, 'method_not_allowed'],
  [
    'a text/plain body',
    req(
      'POST /v1/dispatch/BeforeTool HTTP/1.1',
      { 'content-type': 'text/plain', authorization: `Bearer ${auth.tokens.acme}` },
      'x',
    ),
    415,
    'unsupported_media_type',
  ],
  ['no token', req('POST /v1/dispatch/BeforeTool HTTP/1.1', json, '{}'), 401, 'unauthorized'],
  [
    'a request head over --max-header-bytes',
    req('GET /healthz HTTP/1.1', { 'x-big': 'a'.repeat(10_000) }),
    431,
    'headers_too_large',
  ],
  ['a garbage request line', 'GARBAGE\r\n\r\n', 400, 'invalid_input'],
  ['HTTP/9.9', 'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n', 400, 'invalid_input'],
  [
    'a header without a colon',
    'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
    400,
    'invalid_input',
  ],
  ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n', 405, 'method_not_allowed'],
];

describe('every error answer', () => {
  it.each(CASES)('%s: in the envelope, capped, logged and counted', async (_what, request, status, code) => {
    const before = server.logs().filter((l) => l.msg === 'request' && l.status === status).length;
    const a = await raw(request);
    expect(a.status, a.head + a.body).toBe(status);
    expect(a.head.toLowerCase()).toContain('content-type: application/json');
    const body = JSON.parse(a.body) as { error: { code: string; message: string } };
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
    expect(body.error.code).toBe(code);
    expect(API_ERROR_CODES).toContain(body.error.code);
    // The status is the one the table gives the code.
    expect(API_ERRORS[body.error.code as ApiErrorCode]).toBe(status);
    // Never the framework's own shape, never more than a capped part of what was sent.
    expect(a.body).not.toMatch(/FST_|statusCode|"Bad Request"/);
    expect(a.body).not.toContain('A'.repeat(ECHO_MAX + 1));
    if (status === 405) expect(a.head.toLowerCase()).toMatch(/\r\nallow: /);
    await server.waitForLogs(
      (l) => l.msg === 'request' && l.status === status && l.errorCode === code,
      before + 1,
    );
  });

  it('counts them all in /metrics', async () => {
    const metrics = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${auth.tokens.admin}` } })
    ).text();
    for (const status of [400, 405, 414, 431])
      expect(metrics).toMatch(
        new RegExp(
          `hookwarden_http_requests_total\\{route="unmatched",method="[A-Za-z]+",status="${status}"\\} [1-9]`,
        ),
      );
  });
});
