// The service's logs: JSON lines on stderr, one per request (route, status, tenant, duration,
// decision), and never a body, a header or a token — whatever the request looked like.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { get, post, startServe, writeAuthFile } from '../helpers/serve.js';

const dir = tempDir('hw-logs-');
const config = writeConfig(dir, 'hooks.json', {
  hooks: {
    BeforeTool: [
      {
        hooks: [
          {
            type: 'js',
            name: 'echo-back',
            code: 'export default (i) => ({ decision: "allow", reason: JSON.stringify(i.toolInput) })',
          },
        ],
      },
    ],
  },
  tenants: {
    acme: {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              { name: 'acme-deny', argv: ['/bin/sh', '-c', 'cat >/dev/null; echo "no $0" >&2; exit 2'] },
            ],
          },
        ],
      },
    },
  },
  // An unknown field: a configuration warning, logged as a JSON line.
  limts: {},
});

describe('request logs', () => {
  it('writes one JSON line per request, with route, status, tenant, duration and decision', async () => {
    const auth = writeAuthFile(dir, ['acme', 'admin'], 'auth-lines.json');
    const s = await startServe(['-c', config, '--listen', '127.0.0.1:0', '--auth', auth.path]);
    await post(`${s.url}/v1/dispatch/PreToolUse`, auth.tokens.acme, { toolName: 'Bash' });
    await post(`${s.url}/v1/dispatch/BeforeTool`, auth.tokens.admin, { toolName: 'Bash' });
    await post(`${s.url}/v1/dispatch/Nope`, auth.tokens.acme, {});
    await get(`${s.url}/healthz`);
    await post(`${s.url}/v1/reload`, auth.tokens.acme, '');
    const exit = await s.stop();
    const lines = exit.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.map((r) => [r.method, r.route, r.status])).toEqual([
      ['POST', '/v1/dispatch/:event', 200],
      ['POST', '/v1/dispatch/:event', 200],
      ['POST', '/v1/dispatch/:event', 404],
      ['GET', '/healthz', 200],
      ['POST', '/v1/reload', 403],
    ]);
    expect(requests[0]).toMatchObject({
      level: 'info',
      tenant: 'acme',
      event: 'BeforeTool',
      decision: 'deny',
    });
    expect(requests[0].durationMs).toBeGreaterThan(0);
    expect(requests[0].reqId).toEqual(expect.any(String));
    expect(requests[1]).toMatchObject({ tenant: 'none', decision: 'allow' });
    expect(requests[2]).toMatchObject({ tenant: 'acme', errorCode: 'unknown_event' });
    expect(requests[2].decision).toBeUndefined();
    expect(requests[3].tenant).toBeUndefined();
    expect(requests[4]).toMatchObject({ tenant: 'acme', errorCode: 'forbidden' });
    // The configuration warning is a log line too, naming the file and the path.
    expect(lines.find((l) => l.level === 'warn' && String(l.msg).includes('limts'))).toMatchObject({
      file: config,
      path: '',
    });
  });

  it('never logs a body, a header, a query or a token, even of a request that fails', async () => {
    const marker = `SECRET-${randomBytes(8).toString('hex')}`;
    const auth = writeAuthFile(dir, ['acme', 'admin'], 'auth-secrets.json');
    const s = await startServe([
      '-c',
      config,
      '--listen',
      '127.0.0.1:0',
      '--auth',
      auth.path,
      '--log-level',
      'debug',
    ]);
    const url = (event: string) => `${s.url}/v1/dispatch/${event}?q=${marker}`;
    const input = { toolName: 'Bash', toolInput: { command: `echo ${marker}` }, prompt: marker };
    const answers = [
      await post(url('BeforeTool'), auth.tokens.admin, input, { 'x-note': marker }),
      await post(url('BeforeTool'), auth.tokens.acme, input),
      await post(url('BeforeTool'), auth.tokens.admin, `{"toolName": "${marker}`), // not JSON
      await post(url('BeforeTool'), auth.tokens.admin, { toolName: { marker } }), // invalid: the message quotes it
      await post(url('BeforeTool'), `hw_${marker}`, input), // a wrong token
      await post(url(marker), auth.tokens.admin, input), // an unknown event named like the secret
      await post(`${s.url}/${marker}`, auth.tokens.admin, input), // an unknown route
      await post(url('BeforeTool'), auth.tokens.admin, input, { 'content-type': `text/${marker}` }),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 400, 400, 401, 404, 404, 415]);
    // The answers do carry it back (the caller's own data): the check below can fail.
    expect(JSON.stringify(answers[0]!.body)).toContain(marker);
    expect(JSON.stringify(answers[3]!.body)).toContain(marker);
    const exit = await s.stop();
    expect(exit.stderr.split('\n').filter((l) => l.includes('"msg":"request"'))).toHaveLength(answers.length);
    expect(exit.stderr).not.toContain(marker);
    for (const token of Object.values(auth.tokens)) {
      expect(exit.stderr).not.toContain(token);
      expect(exit.stderr).not.toContain(token.slice(3, 20));
    }
    expect(exit.stderr).not.toMatch(/authorization|bearer/i);
  });
});
