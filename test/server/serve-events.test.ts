// GET /v1/events (text/event-stream) on a real `hookwarden serve`: a tenant's async completions and
// rewakes reach its own stream and no other tenant's; Last-Event-ID resumes after a disconnect (and
// says `lost` for an id it cannot resume from); bad ids are 400, no token is 401; the stream ends
// with `event: end` when the server stops. Also tenantRatePerSec over HTTP: 429 rate_limited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saysNo } from '../helpers/async.js';
import { runCli } from '../helpers/cli.js';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';
import { type LiveServer, post, startServe, writeAuthFile } from '../helpers/serve.js';
import { SseStream } from '../helpers/sse.js';

const dir = tempDir();
const config = writeConfig(dir, 'hooks.json', {
  tenants: {
    acme: saysNo('acme'),
    globex: saysNo('globex'),
    tight: { ...hooksOn('BeforeTool', []), limits: { ratePerSec: 1 } },
  },
});
const auth = writeAuthFile(dir, ['acme', 'globex', 'tight', 'admin']);
const t = auth.tokens;
const bash = { toolName: 'Bash', toolInput: { command: 'ls' } };

let server: LiveServer;
beforeAll(async () => {
  server = await startServe(['--config', config, '--listen', '127.0.0.1:0', '--auth', auth.path]);
});
afterAll(async () => {
  await server.stop();
});

const dispatch = async (token: string) => {
  const r = await post(`${server.url}/v1/dispatch/BeforeTool`, token, bash);
  expect(r.status).toBe(200);
  expect(r.body.decision).toBe('passthrough');
  return r.body.hooks[0].asyncId as string;
};

describe('GET /v1/events', () => {
  it("streams a tenant's completions and rewakes to it, and never to another tenant", async () => {
    const acme = await SseStream.open(server.url, t.acme);
    const globex = await SseStream.open(server.url, t.globex);
    const id = await dispatch(t.acme!);
    const done = await acme.next('async.completed');
    expect(done.data).toMatchObject({ asyncId: id, tenant: 'acme', outcome: 'deny' });
    expect(done.id).toMatch(/^\d+-\d+$/);
    const wake = await acme.next('rewake');
    expect(wake.data).toMatchObject({ asyncId: id, tenant: 'acme', reason: 'acme says no' });
    // globex's first event is its own: acme's were never sent to it.
    const own = await dispatch(t.globex!);
    expect((await globex.next()).data).toMatchObject({ asyncId: own, tenant: 'globex' });
    expect(globex.pending().every((f) => f.data.tenant === 'globex')).toBe(true);
    acme.close();
    globex.close();
  });

  it('resumes after Last-Event-ID with the events missed meanwhile', async () => {
    const first = await SseStream.open(server.url, t.acme);
    await dispatch(t.acme!);
    const seen = await first.next('rewake');
    first.close();
    // Two more while it is away; an observer stream tells us when they happened.
    const observer = await SseStream.open(server.url, t.acme);
    const missed = [await dispatch(t.acme!), await dispatch(t.acme!)];
    await observer.next('rewake');
    await observer.next('rewake');
    observer.close();
    const back = await SseStream.open(server.url, t.acme, seen.id);
    const replayed = [await back.next(), await back.next(), await back.next(), await back.next()];
    // The two runs may finish in either order; each brings its completion and its rewake.
    expect(replayed.map((f) => f.event).sort()).toEqual([
      'async.completed',
      'async.completed',
      'rewake',
      'rewake',
    ]);
    expect(replayed.map((f) => f.data.asyncId).sort()).toEqual(
      [missed[0], missed[0], missed[1], missed[1]].sort(),
    );
    back.close();
    // An id from another run of the server cannot be resumed: the client is told.
    const stale = await SseStream.open(server.url, t.acme, '1-5');
    expect((await stale.next()).event).toBe('lost');
    stale.close();
  });

  it('refuses a malformed Last-Event-ID (400) and a missing token (401)', async () => {
    const bad = await SseStream.open(server.url, t.acme, '1-2-3; DROP');
    expect(bad.status).toBe(400);
    expect((await bad.next()).data.error.code).toBe('invalid_input');
    const anon = await SseStream.open(server.url, undefined);
    expect(anon.status).toBe(401);
  });

  it('limits.tenantRatePerSec (tenants.<id>.limits.ratePerSec): over it, 429 rate_limited with Retry-After', async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post(`${server.url}/v1/dispatch/BeforeTool`, t.tight, bash)),
    );
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    for (const r of refused) {
      expect(r.body.error.code).toBe('rate_limited');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('stopping the server', () => {
  it('ends every open stream with event: end', async () => {
    const s = await startServe(['--config', config, '--listen', '127.0.0.1:0', '--auth', auth.path]);
    const acme = await SseStream.open(s.url, t.acme);
    const stopped = s.stop();
    expect((await acme.next('end')).data.reason).toContain('stopping');
    expect((await stopped).code).toBe(0);
  });

  it('caps open streams per tenant and per server: 429 too_many_streams, and a closed stream frees its place', async () => {
    const s = await startServe([
      ...['--config', config, '--listen', '127.0.0.1:0', '--auth', auth.path],
      ...['--max-event-streams-per-tenant', '1', '--max-event-streams', '2'],
    ]);
    const acme = await SseStream.open(s.url, t.acme);
    const again = await SseStream.open(s.url, t.acme);
    expect(again.status).toBe(429);
    expect((await again.next('http-error')).data.error).toMatchObject({
      code: 'too_many_streams',
      message: expect.stringContaining('maxEventStreamsPerTenant'),
    });
    const globex = await SseStream.open(s.url, t.globex);
    expect(globex.status).toBe(200);
    const third = await SseStream.open(s.url, t.admin);
    expect(third.status).toBe(429);
    expect((await third.next('http-error')).data.error.message).toContain('(maxEventStreams)');
    // acme closes its stream: once the server has seen it go (its log line), acme may open one again.
    acme.close();
    await s.waitForLogs((l) => l.route === '/v1/events' && l.status === 200, 1);
    const back = await SseStream.open(s.url, t.acme);
    expect(back.status).toBe(200);
    back.close();
    globex.close();
    await s.stop();
  });

  it('a bad --max-event-streams is a usage error naming the flag', async () => {
    const r = await runCli([
      'serve',
      '--config',
      config,
      '--listen',
      '127.0.0.1:0',
      '--max-event-streams',
      '2x',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--max-event-streams: expected a whole number');
  });
});
