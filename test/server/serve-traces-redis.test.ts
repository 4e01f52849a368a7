// An async hook's span links to the dispatch that queued it across replicas: replica A queues the job
// on a real redis-server (started by the test on a free loopback port, stopped by PID), A is killed
// by PID while the hook runs, replica B runs the job again and completes it, and B's span of the run
// carries a link to A's dispatch span, read from the job's data in Redis. Both replicas export to one
// OTLP receiver on 127.0.0.1; each names itself in its resource (OTEL_RESOURCE_ATTRIBUTES).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTR } from '../../src/audit/tracing.js';
import { FifoFeed, FifoLines, mkfifo, waitingHook } from '../helpers/fifo.js';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';
import { OtlpCollector } from '../helpers/otlp-collector.js';
import { RedisServer, serveOnRedis } from '../helpers/redis.js';
import { type LiveServer, post, writeAuthFile } from '../helpers/serve.js';

const dir = tempDir('hw-traces-redis-');
const startedFifo = mkfifo(dir, 'started');
const releaseFifo = mkfifo(dir, 'release');
const config = writeConfig(dir, 'hooks.json', {
  tenants: {
    slow: hooksOn('BeforeTool', [{ ...waitingHook(startedFifo, releaseFifo), name: 'slow', async: true }]),
  },
});
const auth = writeAuthFile(dir, ['slow']);
const token = auth.tokens.slow!;

let redis: RedisServer;
let collector: OtlpCollector;
const replica = (name: string) =>
  // The hook waits on FIFOs outside the sandbox root: process mode, not serve's default.
  serveOnRedis(redis, config, ['--auth', auth.path, '--tenant-isolation', 'process'], {
    HOOKWARDEN_QUEUE_LOCK_MS: '1000',
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '20',
    OTEL_RESOURCE_ATTRIBUTES: `service.instance.id=${name}`,
  });
let a: LiveServer | undefined;
let b: LiveServer | undefined;
beforeAll(async () => {
  redis = await RedisServer.start();
  collector = await OtlpCollector.start();
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis.stop();
});

describe('async spans across replicas (Redis)', () => {
  it("B's span of a job A queued links to A's dispatch span", async () => {
    const lines = new FifoLines(startedFifo);
    const release = new FifoFeed(releaseFifo);
    a = await replica('a');
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    const r = await post(
      `${a.url}/v1/dispatch/BeforeTool`,
      token,
      { toolName: 'Bash', toolInput: { command: 'ls' } },
      { traceparent: `00-${traceId}-${parentId}-01` },
    );
    expect(r.status).toBe(200);
    const asyncId = r.body.hooks[0].asyncId as string;
    const [dispatch] = await collector.waitFor(
      (s) => s.traceId === traceId && s.name === 'dispatch BeforeTool',
    );
    expect(dispatch!.resource['service.instance.id']).toBe('a');
    expect(dispatch!.parentSpanId).toBe(parentId);
    expect(await lines.next()).toBe('started'); // running on A
    process.kill(a.child.pid!, 'SIGKILL');
    await a.done;
    b = await replica('b');
    expect(await lines.next()).toBe('started'); // run again, on B
    release.send();
    const [run] = await collector.waitFor(
      (s) => s.attributes[ATTR.asyncId] === asyncId && s.name.startsWith('async'),
    );
    expect(run!.resource['service.instance.id']).toBe('b');
    expect(run!).toMatchObject({ name: 'async hook slow', kind: 5 });
    expect(run!.links).toEqual([{ traceId, spanId: dispatch!.spanId }]);
    expect(run!.attributes).toMatchObject({ [ATTR.tenant]: 'slow', [ATTR.outcome]: 'allow' });
    lines.close();
    release.close();
  });
});
