// Two real `hookwarden serve` replicas sharing a real redis-server (started by the test on a free
// loopback port, stopped by PID): jobs enqueued through A run on B too; a tenant's events reach its
// own stream on the other replica and no other tenant's; A killed by PID mid-job leaves the job to
// B, which completes it, once; a tenant alternating A and B gets the global rate, not twice it;
// with Redis gone, sync dispatches answer and /readyz and /metrics say so.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { saysNo } from '../helpers/async.js';
import { FifoFeed, FifoLines, mkfifo, waitingHook } from '../helpers/fifo.js';
import { hooksOn, printing, tempDir, writeConfig } from '../helpers/fixture.js';
import { describeRedis, REDIS_MISSING, RedisServer, serveOnRedis } from '../helpers/redis.js';
import { get, type LiveServer, metricValue, post, writeAuthFile } from '../helpers/serve.js';
import { SseStream } from '../helpers/sse.js';

const dir = tempDir();
const startedFifo = mkfifo(dir, 'started');
const releaseFifo = mkfifo(dir, 'release');
const config = writeConfig(dir, 'hooks.json', {
  tenants: {
    acme: saysNo('acme'),
    globex: saysNo('globex'),
    slow: hooksOn('BeforeTool', [{ ...waitingHook(startedFifo, releaseFifo), name: 'slow', async: true }]),
    tight: { ...hooksOn('BeforeTool', [printing({}, { name: 'sync' })]), limits: { ratePerSec: 3 } },
  },
});
const auth = writeAuthFile(dir, ['acme', 'globex', 'slow', 'tight', 'admin']);
const t = auth.tokens as Record<string, string>;
const bash = { toolName: 'Bash', toolInput: { command: 'ls' } };

let redis: RedisServer;
const replica = (name: string) =>
  // The slow tenant's hook waits on FIFOs outside the sandbox root: process mode, not serve's default.
  serveOnRedis(
    redis,
    config,
    ['--auth', auth.path, '--audit', `${dir}/${name}.jsonl`, '--tenant-isolation', 'process'],
    {
      HOOKWARDEN_QUEUE_LOCK_MS: '1000',
    },
  );
let a: LiveServer;
let b: LiveServer;
beforeAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  redis = await RedisServer.start();
  [a, b] = await Promise.all([replica('a'), replica('b')]);
});
afterAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  await Promise.all([a.stop(), b.stop()]);
  await redis.stop();
});

const dispatch = async (server: LiveServer, token: string) => {
  const r = await post(`${server.url}/v1/dispatch/BeforeTool`, token, bash);
  expect(r.status).toBe(200);
  return r.body.hooks[0].asyncId as string;
};

describeRedis('serve replicas on one Redis', () => {
  it("jobs enqueued through A complete once each; the tenant's events reach its stream on B, and no other tenant's", async () => {
    const acmeOnB = await SseStream.open(b.url, t.acme!);
    const globexOnA = await SseStream.open(a.url, t.globex!);
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await dispatch(a, t.acme!));
    const seen = [];
    for (let i = 0; i < 6; i++) seen.push((await acmeOnB.next('async.completed')).data);
    expect(seen.map((d) => d.asyncId).sort()).toEqual([...ids].sort());
    expect(seen.every((d) => d.tenant === 'acme' && d.outcome === 'deny')).toBe(true);
    expect((await acmeOnB.next('rewake')).data.reason).toBe('acme says no');
    // globex's first event is its own.
    const own = await dispatch(b, t.globex!);
    expect((await globexOnA.next()).data).toMatchObject({ asyncId: own, tenant: 'globex' });
    expect(globexOnA.pending().every((f) => f.data.tenant === 'globex')).toBe(true);
    acmeOnB.close();
    globexOnA.close();
  });

  it('a tenant alternating A and B gets the global rate, not twice it', async () => {
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(`${(i % 2 === 0 ? a : b).url}/v1/dispatch/BeforeTool`, t.tight!, bash),
      ),
    );
    const elapsed = Date.now() - started;
    const accepted = answers.filter((r) => r.status === 200).length;
    expect(accepted).toBeGreaterThanOrEqual(3);
    // 3 per second across both replicas (a per-replica limit would let 6 through in the first second).
    expect(accepted).toBeLessThanOrEqual(3 * (1 + Math.floor(elapsed / 1000)));
    for (const r of answers.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(429);
      expect(r.body.error.code).toBe('rate_limited');
    }
  });

  it('A killed by PID mid-job: B takes the job once its lock lapses and completes it exactly once', async () => {
    const lines = new FifoLines(startedFifo);
    const release = new FifoFeed(releaseFifo);
    // Only A works for now: B stops taking jobs by being stopped and restarted after the kill.
    await b.stop();
    const id = await dispatch(a, t.slow!);
    expect(await lines.next()).toBe('started');
    process.kill(a.child.pid!, 'SIGKILL');
    await a.done;
    b = await replica('b2');
    const onB = await SseStream.open(b.url, t.slow!, '0-0');
    expect(await lines.next()).toBe('started'); // run again, on B
    release.send();
    release.send(); // in case A's orphaned hook were still reading: it is not (parent-death signal)
    const done = await onB.next('async.completed');
    expect(done.data).toMatchObject({ asyncId: id, outcome: 'allow' });
    // A later job's completion is after any duplicate would have been written: there is none.
    a = await replica('a2');
    const later = await dispatch(a, t.acme!);
    const client = new Redis(redis.url);
    const acme = await SseStream.open(b.url, t.acme!, '0-0');
    for (;;) if ((await acme.next('async.completed')).data.asyncId === later) break;
    const entries = (await client.xrange('hookwarden:events:t:slow', '-', '+')) as [string, string[]][];
    expect(
      entries.filter(([, f]) => f[1] === 'async.completed' && JSON.parse(f[3]!).asyncId === id),
    ).toHaveLength(1);
    client.disconnect();
    acme.close();
    onB.close();
    lines.close();
    release.close();
  });

  it('Redis gone: sync dispatches answer, async hooks fail queue_unavailable, /readyz and /metrics say so', async () => {
    await redis.stop('SIGKILL');
    const r = await post(`${a.url}/v1/dispatch/BeforeTool`, t.acme!, bash);
    expect(r.status).toBe(200);
    expect(r.body.hooks[0]).toMatchObject({ outcome: 'error', error: { code: 'queue_unavailable' } });
    const ready = await get(`${a.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.body.queue).toMatchObject({ mode: 'redis', redis: 'down' });
    const metrics = await get(`${a.url}/metrics`, t.admin);
    expect(metricValue(metrics.text, 'hookwarden_queue_redis_up')).toBe(0);
    expect(metricValue(metrics.text, 'hookwarden_queue_unavailable_total')).toBeGreaterThanOrEqual(1);
    await redis.restart();
  });
});
