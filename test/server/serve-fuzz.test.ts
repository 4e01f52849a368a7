// Hostile requests, byte by byte over raw TCP: bad JSON, wrong types, huge headers, slow headers and
// bodies, truncated bodies, wrong methods, odd paths, smuggling attempts, `__proto__` keys. Each one
// gets a 4xx (or its connection closed), never a 500 or a stack trace, and after each the server
// still answers a well-formed dispatch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import {
  type LiveServer,
  post,
  type RawAnswer,
  rawExchange,
  startServe,
  writeAuthFile,
} from '../helpers/serve.js';

const dir = tempDir('hw-fuzz-');
const config = writeConfig(dir, 'hooks.json', {
  hooks: {
    BeforeTool: [
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'js',
            name: 'keys',
            code: 'export default (i) => ({ decision: "allow", reason: JSON.stringify(Object.keys(i.toolInput)) + ({}).polluted })',
          },
        ],
      },
    ],
  },
});
const auth = writeAuthFile(dir, ['admin']);
const token = auth.tokens.admin!;
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
    '--headers-timeout',
    '1',
    '--request-timeout',
    '2',
    '--max-header-bytes',
    '8192',
  ]);
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  const exit = await server.stop();
  expect(exit.code).toBe(0);
  // Only JSON lines on stderr: no stack trace, no warning printed by Node.
  for (const line of exit.stderr.trim().split('\n')) expect(() => JSON.parse(line), line).not.toThrow();
  expect(exit.stderr).not.toMatch(/"level":"(error|fatal)"/);
});

const raw = (chunks: (string | Buffer)[], options: { end?: boolean } = {}) =>
  rawExchange(port, chunks, options);

const head = (method: string, path: string, headers: Record<string, string | number>, body = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n${body}`;

const dispatch = (
  body: string,
  extra: Record<string, string | number> = {},
  path = '/v1/dispatch/BeforeTool',
) =>
  head(
    'POST',
    path,
    {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...extra,
    },
    body,
  );

/** The server still answers a well-formed dispatch, with the right verdict. */
async function stillServes(): Promise<void> {
  const r = await post(`${server.url}/v1/dispatch/BeforeTool`, token, {
    toolName: 'Bash',
    toolInput: { command: 'ls' },
  });
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ decision: 'allow', reason: '["command"]undefined' });
}

const expect4xx = (a: RawAnswer, what: string) => {
  expect(a.status === 0 || (a.status >= 400 && a.status < 500), `${what}: ${a.text.slice(0, 200)}`).toBe(
    true,
  );
  expect(a.text, what).not.toMatch(/\n\s+at |internal_error/);
};

describe('hostile requests', () => {
  it('bad JSON and wrong types get 400 invalid_input', async () => {
    const bodies = [
      '{',
      '{"toolName": "Bash",}',
      'nul',
      '\u0000\u0001\u0002',
      '{"toolName": "Bash", "toolInput": "not an object"}',
      '{"toolName": ["Bash"]}',
      '{"toolName": "Bash", "sessionId": ""}',
      '{"toolName": "Bash", "caller": {"kind": "robot"}}',
      '{"toolName": "Bash", "compaction": {"tokens": "many"}}',
      '1e999999',
      `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
      `{"a":${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}}`,
    ];
    for (const body of bodies) {
      const a = await raw([dispatch(body)]);
      expect(a.status, body.slice(0, 40)).toBe(400);
      expect(a.text).toContain('"code":"invalid_input"');
      await stillServes();
    }
    // Bytes that are not UTF-8 in a JSON string are read as U+FFFD: data, not an error.
    const latin = await raw([
      dispatch('{"toolName":"Bash","toolInput":{"command":"caf\u00e9"}}').replace('caf\u00e9', 'caf\u00e9'),
    ]);
    expect([200, 400]).toContain(latin.status);
    await stillServes();
  });

  it('`__proto__`, `constructor` and `prototype` keys are plain data: no prototype is polluted', async () => {
    const body = JSON.stringify({
      toolName: 'Bash',
      toolInput: { command: 'ls' },
    }).replace(
      '"toolInput":{',
      '"__proto__":{"polluted":"yes","toolName":"Read"},"constructor":{"prototype":{"polluted":"yes"}},"toolInput":{"__proto__":{"polluted":"yes"},',
    );
    const a = await raw([dispatch(body)]);
    expect(a.status, a.text).toBe(200);
    const result = JSON.parse(a.text.slice(a.text.indexOf('\r\n\r\n') + 4));
    // The hook saw `__proto__` as an own key of toolInput, and nothing inherited "polluted".
    expect(result, a.text).toMatchObject({ decision: 'allow', reason: '["__proto__","command"]undefined' });
    await stillServes();
  });

  it('a request head over --max-header-bytes gets 431, and the next request is served', async () => {
    const a = await raw([dispatch('{}', { 'x-big': 'a'.repeat(10_000) })]);
    expect(a.status, a.text).toBe(431);
    const many = await raw([
      dispatch('{}', Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`x-h${i}`, 'v'.repeat(10)]))),
    ]);
    expect(many.status).toBe(431);
    await stillServes();
  });

  it('slow headers and slow or truncated bodies are cut off, while others are served meanwhile', async () => {
    // Slowloris: a request head that never ends. The server closes it after --headers-timeout.
    const slowHead = raw(['POST /v1/dispatch/BeforeTool HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n']);
    // A body shorter than its Content-Length, never finished: cut after --request-timeout.
    const slowBody = raw([dispatch('{"toolName"', { 'content-length': 100 })]);
    await stillServes();
    await stillServes();
    expect4xx(await slowHead, 'slow head');
    expect4xx(await slowBody, 'slow body');
    // A body cut short by the client closing its side: no answer is possible; nothing breaks.
    expect4xx(
      await raw([dispatch('{"toolName":"Bash"', { 'content-length': 100 })], { end: true }),
      'truncated body',
    );
    await stillServes();
  });

  it('wrong methods, odd paths and malformed request lines get 4xx', async () => {
    const requests = [
      head('GET', '/v1/dispatch/BeforeTool', { authorization: `Bearer ${token}` }),
      head('PUT', '/v1/dispatch/BeforeTool', { authorization: `Bearer ${token}`, 'content-length': 2 }, '{}'),
      head('DELETE', '/v1/reload', { authorization: `Bearer ${token}` }),
      head('HEAD', '/healthz', {}),
      head('TRACE', '/', {}),
      head('CONNECT', 'example.com:443', {}),
      dispatch('{}', {}, '/v1/dispatch/'),
      dispatch('{}', {}, '/v1/dispatch/%00'),
      dispatch('{}', {}, '/v1/dispatch/%E0%A4%A'),
      dispatch('{}', {}, '/v1/dispatch/..%2F..%2Fetc%2Fpasswd'),
      dispatch('{}', {}, '/v1/dispatch/../../etc/passwd'),
      dispatch('{}', {}, `/v1/dispatch/${'A'.repeat(5000)}`),
      dispatch('{}', {}, '/v1/dispatch/__proto__'),
      dispatch('{}', {}, '/v1/dispatch/constructor'),
      dispatch('{}', {}, '/v1/dispatch/toString'),
      dispatch('{}', {}, '*'),
      'GARBAGE\r\n\r\n',
      'POST /v1/dispatch/BeforeTool HTTP/9.9\r\nHost: x\r\n\r\n',
      'POST /v1/dispatch/BeforeTool HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      '\r\n\r\n\r\n',
      Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00]).toString('latin1'), // a TLS hello
    ];
    for (const r of requests) {
      const a = await raw([r]);
      expect4xx(a, r.slice(0, 60));
    }
    await stillServes();
  });

  it('request smuggling, bad lengths and bad chunks are refused', async () => {
    const auth = `Connection: close\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n`;
    const requests = [
      `POST /v1/dispatch/BeforeTool HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      `POST /v1/dispatch/BeforeTool HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      `POST /v1/dispatch/BeforeTool HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`,
      `POST /v1/dispatch/BeforeTool HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: -1\r\n\r\n`,
      `POST /v1/dispatch/BeforeTool HTTP/1.1\r\nHost: x\r\n${auth}Content-Length: 99999999999999999999\r\n\r\n`,
      `POST /v1/dispatch/BeforeTool HTTP/1.1\r\nHost: x\r\n${auth}Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n`,
    ];
    for (const r of requests) expect4xx(await raw([r]), r.slice(r.indexOf('Content-Type')));
    await stillServes();
  });

  it('two pipelined requests on one connection are answered in order', async () => {
    const body = JSON.stringify({ toolName: 'Bash', toolInput: { command: 'ls' } });
    const one = dispatch(body).replace('Connection: close\r\n', '');
    const a = await raw([one + dispatch(body)]);
    expect(a.text.match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
  });

  it('odd Authorization headers get 401', async () => {
    for (const value of [
      'Bearer',
      'Bearer ',
      `Bearer ${token} extra`,
      `bearer\t${token}`,
      'Bearer \u00ff\u00fe',
      'x'.repeat(4000),
    ]) {
      const r = `POST /v1/dispatch/BeforeTool HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: ${value}\r\nContent-Length: 2\r\nContent-Type: application/json\r\n\r\n{}`;
      const a = await raw([Buffer.from(r, 'latin1')]);
      expect(a.status, value.slice(0, 30)).toBe(401);
    }
    await stillServes();
  });
});
