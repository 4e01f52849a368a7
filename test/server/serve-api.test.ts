// The HTTP contract of `hookwarden serve`, against the real CLI on 127.0.0.1: authentication, the
// tenant taken from the token (never from the body or the query), every status of a dispatch, the
// other routes, the OpenAPI document and the metrics.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dispatchResultSchema,
  errorBodySchema,
  eventCatalogueSchema,
  queueFullBodySchema,
  reloadResultSchema,
} from '../../src/server/api-schemas.js';
import { newToken } from '../../src/server/tokens.js';
import { FifoFeed, FifoLines, mkfifo, waitingHook } from '../helpers/fifo.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { get, type LiveServer, metricValue, post, startServe, writeAuthFile } from '../helpers/serve.js';

const dir = tempDir('hw-serve-');
const startedPath = mkfifo(dir, 'started');
const releasePath = mkfifo(dir, 'release');
const js = (code: string, name: string) => ({ type: 'js', name, code });
const config = writeConfig(dir, 'hooks.json', {
  hooks: {
    BeforeTool: [
      {
        matcher: 'Bash',
        hooks: [
          js(
            "export default (i) => String(i.toolInput.command).includes('rm') ? { decision: 'deny', reason: 'no rm' } : undefined",
            'no-rm',
          ),
        ],
      },
    ],
  },
  tenants: {
    acme: {
      hooks: {
        BeforeTool: [
          { hooks: [js("export default () => ({ decision: 'ask', reason: 'acme asks' })", 'acme-ask')] },
        ],
      },
    },
    globex: {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              { name: 'globex-allow', argv: ['/bin/echo', '{"decision":"allow","reason":"globex allows"}'] },
            ],
          },
        ],
      },
    },
    tight: {
      limits: { maxConcurrent: 1, maxQueued: 1 },
      hooks: {
        SessionStart: [{ hooks: [{ name: 'waits', ...waitingHook(startedPath, releasePath) }] }],
        BeforeTool: [
          { hooks: [{ name: 'guard', onError: 'skip', ...waitingHook(startedPath, releasePath) }] },
        ],
      },
    },
  },
});
// The policy level's input limit is the body limit (a project file could only lower it for its own hooks).
const policy = writeConfig(dir, 'policy.json', { limits: { maxInputBytes: 4096 } });
const auth = writeAuthFile(dir, ['acme', 'globex', 'tight', 'stranger', 'admin']);
const t = auth.tokens;
const bash = (command: string) => ({ toolName: 'Bash', toolInput: { command } });

let server: LiveServer;
let dispatchUrl: (event: string) => string;
beforeAll(async () => {
  server = await startServe([
    // The tenants' hooks wait on FIFOs outside the sandbox root: process mode, not serve's default.
    '--tenant-isolation',
    'process',
    '--config',
    config,
    '--policy',
    policy,
    '--listen',
    '127.0.0.1:0',
    '--auth',
    auth.path,
    '--metrics-listen',
    '127.0.0.1:0',
  ]);
  dispatchUrl = (event) => `${server.url}/v1/dispatch/${event}`;
});
afterAll(async () => {
  const exit = await server.stop();
  expect(exit.code).toBe(0);
});

describe('authentication', () => {
  it('answers 401 with a Bearer challenge without a token, with a wrong one, or with another scheme', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer hw_not-a-token' },
      { authorization: `Basic ${t.acme}` },
    ]) {
      const res = await fetch(dispatchUrl('BeforeTool'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(bash('ls')),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="hookwarden"');
      expect(errorBodySchema.parse(await res.json()).error.code).toBe('unauthorized');
    }
  });

  it('refuses tenant tokens on admin routes (403) and accepts the admin token', async () => {
    for (const [method, path] of [
      ['POST', '/v1/reload'],
      ['GET', '/metrics'],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${t.acme}` },
      });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe('forbidden');
      const ok = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${t.admin}` },
      });
      expect(ok.status).toBe(200);
    }
  });
});

describe('POST /v1/dispatch/{event}', () => {
  it("runs the token's tenant's hooks, whatever tenant the body or the query names", async () => {
    const acme = await post(dispatchUrl('BeforeTool'), t.acme, bash('ls'));
    expect(acme.status).toBe(200);
    expect(dispatchResultSchema.strict().parse(acme.body)).toMatchObject({
      decision: 'ask',
      decidedBy: 'acme-ask',
    });
    const globex = await post(dispatchUrl('BeforeTool'), t.globex, bash('ls'));
    expect(globex.body).toMatchObject({ decision: 'allow', decidedBy: 'globex-allow' });
    // acme's token, globex named in the body, the query and a header: acme's hooks run.
    const spoofed = await post(
      `${dispatchUrl('BeforeTool')}?tenant=globex`,
      t.acme,
      { ...bash('ls'), tenant: 'globex' },
      { 'x-hookwarden-tenant': 'globex' },
    );
    expect(spoofed.status).toBe(200);
    expect(spoofed.body.decidedBy).toBe('acme-ask');
    expect(spoofed.body.hooks.map((h: { id: string }) => h.id)).toEqual(['acme-ask']);
  });

  it('runs only policy hooks for a tenant the configuration does not name, and the top-level hooks for admin', async () => {
    const stranger = await post(dispatchUrl('BeforeTool'), t.stranger, bash('rm -rf /'));
    expect(stranger.body).toEqual({ event: 'BeforeTool', decision: 'passthrough', hooks: [] });
    const admin = await post(dispatchUrl('BeforeTool'), t.admin, bash('rm -rf /'));
    expect(admin.body).toMatchObject({ decision: 'deny', reason: 'no rm', decidedBy: 'no-rm' });
  });

  it('puts the verdict in the body, never in the status: a deny is 200', async () => {
    const r = await post(dispatchUrl('PreToolUse'), t.admin, bash('rm -rf build'));
    expect(r.status).toBe(200);
    expect(r.body.event).toBe('BeforeTool');
    expect(r.body.decision).toBe('deny');
  });

  it("accepts Claude Code's snake_case input", async () => {
    const r = await post(dispatchUrl('PreToolUse'), t.admin, {
      session_id: 'abc',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'rm -rf /' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ decision: 'deny', decidedBy: 'no-rm' });
  });

  it('treats an empty body as {}', async () => {
    const res = await fetch(dispatchUrl('SessionStart'), {
      method: 'POST',
      headers: { authorization: `Bearer ${t.admin}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ event: 'SessionStart', decision: 'passthrough', hooks: [] });
  });

  it('answers 400 invalid_input for a body that is not JSON, not an object, or not a valid input', async () => {
    const cases: [string, RegExp][] = [
      ['{"toolName": ', /the body is not JSON/],
      ['[1, 2]', /expected an object, got an array/],
      ['"text"', /expected an object, got string/],
      [JSON.stringify({ toolName: 7 }), /input\.toolName: expected a string, got 7/],
      [JSON.stringify({ toolName: 'Bash', timestamp: 'yesterday' }), /input\.timestamp/],
    ];
    for (const [body, message] of cases) {
      const r = await post(dispatchUrl('BeforeTool'), t.admin, body);
      expect(r.status, body).toBe(400);
      expect(errorBodySchema.parse(r.body).error.code).toBe('invalid_input');
      expect(r.body.error.message).toMatch(message);
    }
  });

  it('answers 404 unknown_event for an event the catalogue does not know', async () => {
    const r = await post(dispatchUrl('NoSuchEvent'), t.acme, {});
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('unknown_event');
    expect(r.body.error.message).toContain('BeforeTool');
  });

  it('answers 413 for a body over limits.maxInputBytes, and 415 for a body that is not JSON by its type', async () => {
    const big = await post(dispatchUrl('BeforeTool'), t.acme, { ...bash('ls'), pad: 'x'.repeat(5000) });
    expect(big.status).toBe(413);
    expect(big.body.error).toEqual({
      code: 'body_too_large',
      message: 'the body is larger than limits.maxInputBytes (4096 bytes)',
    });
    const text = await post(dispatchUrl('BeforeTool'), t.acme, '{}', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('unsupported_media_type');
  });

  it("answers 429 with Retry-After when a hook was refused because the tenant's queue is full", async () => {
    const started = new FifoLines(startedPath);
    const release = new FifoFeed(releasePath);
    try {
      // tight: one hook at a time, one waiting. The first runs (and waits), the second queues…
      const first = post(dispatchUrl('SessionStart'), t.tight, {});
      expect(await started.next()).toBe('started');
      const second = post(dispatchUrl('SessionStart'), t.tight, {});
      for (;;) {
        const m = await get(`${server.metricsUrl}/metrics`);
        if (metricValue(m.text, 'hookwarden_lane_queued', { tenant: 'tight', lane: 'command' }) === 1) break;
      }
      // …and the third finds the queue full.
      const third = await post(dispatchUrl('SessionStart'), t.tight, {});
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBe('1');
      const body = queueFullBodySchema.parse(third.body);
      expect(body.error.code).toBe('queue_full');
      expect(body.result!.hooks[0]).toMatchObject({
        id: 'waits',
        outcome: 'not-run',
        error: { code: 'queue_full' },
      });
      // A refused dispatch is never a verdict: no decision on an event that cannot deny…
      expect(body.result).not.toHaveProperty('decision');
      // …and deny on one that can, though the guard that did not run fails open (onError "skip").
      const tool = await post(dispatchUrl('PreToolUse'), t.tight, bash('rm -rf /'));
      expect(tool.status).toBe(429);
      const toolBody = queueFullBodySchema.parse(tool.body);
      expect(toolBody.result!.decision).toBe('deny');
      expect(toolBody.result!.hooks[0]).toMatchObject({ id: 'guard', error: { code: 'queue_full' } });
      // Another tenant is not affected.
      expect((await post(dispatchUrl('BeforeTool'), t.globex, bash('ls'))).status).toBe(200);
      release.send();
      release.send();
      expect((await first).status).toBe(200);
      expect(await started.next()).toBe('started');
      expect((await second).status).toBe(200);
    } finally {
      // Whatever failed above, no hook stays blocked (the server could not drain).
      release.send();
      release.send();
      started.close();
      release.close();
    }
  });
});

describe('other routes', () => {
  it('GET /v1/events answers the catalogue as JSON unless only an event stream is acceptable (serve-events.test.ts)', async () => {
    const r = await get(`${server.url}/v1/events`, t.acme);
    expect(r.status).toBe(200);
    const catalogue = eventCatalogueSchema.strict().parse(r.body);
    expect(catalogue.events.find((e) => e.name === 'BeforeTool')).toMatchObject({
      mode: 'serial',
      canDeny: true,
      toolScoped: true,
    });
    expect(catalogue.aliases.PreToolUse).toBe('BeforeTool');
    const both = await get(`${server.url}/v1/events`, t.acme, {
      accept: 'text/event-stream, application/json;q=0.5',
    });
    expect(both.status).toBe(200);
    expect((await get(`${server.url}/v1/events`)).status).toBe(401);
  });

  it('POST /v1/reload reloads the configuration and the auth file, keeping the tokens in force when the file is broken', async () => {
    const r = await post(`${server.url}/v1/reload`, t.admin, '');
    expect(r.status).toBe(200);
    expect(reloadResultSchema.strict().parse(r.body)).toMatchObject({
      ok: true,
      auth: { ok: true, tokens: 5 },
    });
    // A token added to the file works after a reload.
    const original = JSON.parse(await (await import('node:fs/promises')).readFile(auth.path, 'utf8'));
    const fresh = newToken({ tenant: 'acme' });
    writeFileSync(auth.path, JSON.stringify({ tokens: [...original.tokens, fresh.entry] }), { mode: 0o600 });
    expect((await post(dispatchUrl('BeforeTool'), fresh.token, bash('ls'))).status).toBe(401);
    expect((await post(`${server.url}/v1/reload`, t.admin, '')).body.auth).toEqual({ ok: true, tokens: 6 });
    expect((await post(dispatchUrl('BeforeTool'), fresh.token, bash('ls'))).body.decidedBy).toBe('acme-ask');
    // A broken file is refused; every token in force keeps working.
    writeFileSync(auth.path, '{"tokens": [{"sha256": "abc", "tenant": "acme"}]}');
    const refused = await post(`${server.url}/v1/reload`, t.admin, '');
    expect(refused.body.ok).toBe(true);
    expect(refused.body.auth.ok).toBe(false);
    expect(refused.body.auth.reason).toContain('tokens[0].sha256: expected 64 lowercase hex characters');
    expect((await post(dispatchUrl('BeforeTool'), fresh.token, bash('ls'))).status).toBe(200);
    writeFileSync(auth.path, JSON.stringify(original), { mode: 0o600 });
  });

  it('GET /healthz and /readyz answer without a token', async () => {
    expect(await get(`${server.url}/healthz`)).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await get(`${server.url}/readyz`)).toMatchObject({ status: 200, body: { status: 'ready' } });
  });

  it('answers 404 not_found for an unknown route and 405 for another method, in the error envelope, without CORS headers', async () => {
    for (const [method, path, status, code] of [
      ['GET', '/v1/dispatch/BeforeTool', 405, 'method_not_allowed'],
      ['GET', '/nothing/here', 404, 'not_found'],
      ['OPTIONS', '/v1/dispatch/BeforeTool', 405, 'method_not_allowed'],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { origin: 'https://evil.example', authorization: `Bearer ${t.admin}` },
      });
      expect(res.status).toBe(status);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      if (status === 405) expect(res.headers.get('allow')).toBe('POST');
      expect(errorBodySchema.parse(await res.json()).error.code).toBe(code);
    }
  });
});

describe('GET /openapi.json', () => {
  it('documents every route the server answers, with schemas generated from zod', async () => {
    const r = await get(`${server.url}/openapi.json`);
    expect(r.status).toBe(200);
    const doc = r.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/healthz',
        '/metrics',
        '/openapi.json',
        '/readyz',
        '/v1/dispatch/{event}',
        '/v1/events',
        '/v1/reload',
      ].sort(),
    );
    // Every $ref points at a component.
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/\w+/g) ?? [];
    for (const ref of refs) expect(doc.components.schemas[ref.split('/').pop()!], ref).toBeDefined();
    expect(doc.components.schemas.DispatchResult.properties.decision.enum).toEqual([
      'allow',
      'deny',
      'ask',
      'defer',
      'passthrough',
    ]);
    expect(doc.components.schemas.DispatchBody.required ?? []).toEqual([]);
    expect(Object.keys(doc.paths['/v1/dispatch/{event}'].post.responses).sort()).toEqual(
      ['200', '400', '401', '404', '413', '415', '429', '503'].sort(),
    );
  });
});

describe('metrics', () => {
  it('counts a dispatch by event, tenant and decision, and its hooks by type, outcome and error code', async () => {
    const before = await get(`${server.url}/metrics`, t.admin);
    const count = (text: string) =>
      metricValue(text, 'hookwarden_dispatch_duration_seconds_count', {
        event: 'BeforeTool',
        tenant: 'acme',
        decision: 'ask',
      }) ?? 0;
    const hooks = (text: string) =>
      metricValue(text, 'hookwarden_hook_outcomes_total', {
        type: 'js',
        outcome: 'ask',
        error_code: 'none',
      }) ?? 0;
    await post(dispatchUrl('PreToolUse'), t.acme, bash('ls'));
    const after = await get(`${server.url}/metrics`, t.admin);
    expect(after.headers.get('content-type')).toContain('text/plain');
    expect(count(after.text)).toBe(count(before.text) + 1);
    expect(hooks(after.text)).toBe(hooks(before.text) + 1);
    expect(metricValue(after.text, 'hookwarden_pool_slots', { lane: 'js' })).toBeGreaterThan(0);
    expect(
      metricValue(after.text, 'hookwarden_reloads_total', { what: 'config', result: 'ok' }),
    ).toBeGreaterThan(0);
    expect(metricValue(after.text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(
      metricValue(after.text, 'hookwarden_http_requests_total', {
        route: '/v1/dispatch/:event',
        method: 'POST',
        status: '200',
      }),
    ).toBeGreaterThan(0);
  });

  it('never makes a series for an unknown event or tenant', async () => {
    await post(dispatchUrl('MadeUpEvent'), t.acme, {});
    await post(dispatchUrl('BeforeTool'), t.stranger, bash('ls'));
    const m = (await get(`${server.metricsUrl}/metrics`)).text;
    expect(m).not.toContain('MadeUpEvent');
    expect(m).not.toContain('stranger');
    expect(
      metricValue(m, 'hookwarden_dispatch_duration_seconds_count', {
        event: 'BeforeTool',
        tenant: 'other',
        decision: 'passthrough',
      }),
    ).toBeGreaterThan(0);
    const tenants = new Set([...m.matchAll(/tenant="([^"]*)"/g)].map((x) => x[1]));
    for (const tenant of tenants) expect(['acme', 'globex', 'tight', 'other', 'none']).toContain(tenant);
  });

  it('serves /metrics, /healthz and /readyz without a token on --metrics-listen, and nothing else', async () => {
    expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await get(`${server.metricsUrl}/metrics`)).status).toBe(200);
    expect((await get(`${server.metricsUrl}/readyz`)).status).toBe(200);
    expect((await post(`${server.metricsUrl}/v1/dispatch/BeforeTool`, t.admin, {})).status).toBe(404);
  });
});

describe('the listening line', () => {
  it('is the only line on stdout', () => {
    expect(server.stdout()).toBe(
      `${JSON.stringify({ listening: server.url, metrics: server.metricsUrl })}\n`,
    );
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).not.toMatch(/:0$/);
  });
});
