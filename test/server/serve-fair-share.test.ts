// Fair by default, against the real `hookwarden serve` on 127.0.0.1: a tenant flooding the command
// lane leaves a recently active tenant its share (a lone tenant still uses the whole lane), and a
// tenant whose queue is full (limits.tenantMaxQueued, 256 by default) is answered 429 with
// Retry-After at once instead of waiting. Hooks wait on FIFOs (events, not sleeps).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueFullBodySchema } from '../../src/server/api-schemas.js';
import { FifoFeed, FifoLines, mkfifo, waitingHook } from '../helpers/fifo.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { get, type LiveServer, metricValue, post, startServe, writeAuthFile } from '../helpers/serve.js';

const dir = tempDir('hw-serve-fair-');
const startedPath = mkfifo(dir, 'started');
const releasePath = mkfifo(dir, 'release');
const config = writeConfig(dir, 'hooks.json', {
  tenants: {
    flood: {
      hooks: { SessionStart: [{ hooks: [{ name: 'waits', ...waitingHook(startedPath, releasePath) }] }] },
    },
    quiet: {
      hooks: { SessionStart: [{ hooks: [{ name: 'quick', argv: ['/bin/echo', '{"decision":"allow"}'] }] }] },
    },
  },
});
const auth = writeAuthFile(dir, ['flood', 'quiet']);
const t = auth.tokens;
// One reader and one writer for the whole file (two readers of one FIFO would share its lines).
const started = new FifoLines(startedPath);
const release = new FifoFeed(releasePath);
afterAll(() => {
  started.close();
  release.close();
});

async function serve(limits: Record<string, number>): Promise<LiveServer> {
  return startServe([
    // The hooks wait on FIFOs outside the sandbox root: process mode, not serve's default.
    '--tenant-isolation',
    'process',
    '--config',
    config,
    '--policy',
    writeConfig(dir, `policy-${Object.values(limits).join('-')}.json`, { limits }),
    '--listen',
    '127.0.0.1:0',
    '--auth',
    auth.path,
    '--metrics-listen',
    '127.0.0.1:0',
  ]);
}

/** Waits until the command lane holds `total` of `tenant`'s hooks (queued + running); returns both. */
async function laneHolds(server: LiveServer, tenant: string, total: number) {
  for (;;) {
    const m = (await get(`${server.metricsUrl}/metrics`)).text;
    const labels = { tenant, lane: 'command' };
    const queued = metricValue(m, 'hookwarden_lane_queued', labels) ?? 0;
    const running = metricValue(m, 'hookwarden_lane_running', labels) ?? 0;
    if (queued + running === total) return { queued, running };
  }
}

describe('fair share of the command lane (4 slots)', () => {
  let server: LiveServer;
  const url = () => `${server.url}/v1/dispatch/SessionStart`;
  // A reserve that no pause of a loaded machine ends mid-test (the default is 1 s).
  beforeAll(async () => {
    server = await serve({ maxConcurrentCommands: 4, fairShareIdleMs: 600_000 });
  });
  afterAll(async () => {
    expect((await server.stop()).code).toBe(0);
  });

  it('lets a lone tenant use the whole lane', async () => {
    const flood = Array.from({ length: 5 }, () => post(url(), t.flood, {}));
    for (let i = 0; i < 4; i++) expect(await started.next()).toBe('started');
    expect(await laneHolds(server, 'flood', 5)).toEqual({ queued: 1, running: 4 });
    for (let i = 0; i < 5; i++) release.send();
    expect(await started.next()).toBe('started');
    for (const r of await Promise.all(flood)) expect(r.status).toBe(200);
  });

  it('keeps a recently active tenant its slot beside a flood, and its next hook runs at once', async () => {
    expect((await post(url(), t.quiet, {})).status).toBe(200);
    const flood = Array.from({ length: 10 }, () => post(url(), t.flood, {}));
    for (let i = 0; i < 3; i++) expect(await started.next()).toBe('started');
    // Every flood hook is in the lane and none can end: the lane is settled.
    expect(await laneHolds(server, 'flood', 10)).toEqual({ queued: 7, running: 3 });
    // The quiet tenant's hook runs while the flood's wait (it would wait for them without its share).
    const quiet = await post(url(), t.quiet, {});
    expect(quiet.status).toBe(200);
    expect(quiet.body.hooks).toMatchObject([{ id: 'quick', outcome: 'proceed' }]);
    for (let i = 0; i < 10; i++) release.send();
    for (let i = 0; i < 7; i++) expect(await started.next()).toBe('started');
    for (const r of await Promise.all(flood)) expect(r.status).toBe(200);
  });
});

describe('queue admission by default (limits.tenantMaxQueued 256)', () => {
  let server: LiveServer;
  beforeAll(async () => {
    server = await serve({ maxConcurrentCommands: 1 });
  });
  afterAll(async () => {
    expect((await server.stop()).code).toBe(0);
  });

  it("answers 429 with Retry-After once a tenant's 256 hooks wait, without waiting itself; others still run", async () => {
    const url = `${server.url}/v1/dispatch/SessionStart`;
    const first = post(url, t.flood, {});
    expect(await started.next()).toBe('started');
    const waiting = Array.from({ length: 256 }, () => post(url, t.flood, {}));
    expect(await laneHolds(server, 'flood', 257)).toEqual({ queued: 256, running: 1 });
    const refused = await post(url, t.flood, {});
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(queueFullBodySchema.parse(refused.body).error.code).toBe('queue_full');
    for (let i = 0; i < 257; i++) release.send();
    expect((await first).status).toBe(200);
    for (let i = 0; i < 256; i++) expect(await started.next()).toBe('started');
    for (const r of await Promise.all(waiting)) expect(r.status).toBe(200);
  });
});
