// Hostile data in Redis, against a real `hookwarden serve --queue` and a real redis-server (started on
// a free loopback port, stopped by PID). Whoever can write to Redis is inside the trust boundary
// (docs/scaling.md "Trust"), but what the replicas read back is still parsed like any input from
// outside: a malformed stream entry is skipped, never crashes the replica nor reaches the client as
// a frame of its own making.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';
import { hooksOn, input, printing, tempDir, writeConfig } from '../helpers/fixture.js';
import { describeRedis, REDIS_MISSING, RedisServer, serveOnRedis } from '../helpers/redis.js';
import { get, type LiveServer, post, writeAuthFile } from '../helpers/serve.js';
import { SseStream } from '../helpers/sse.js';

const dir = tempDir();
const config = writeConfig(dir, 'hooks.json', {
  tenants: { acme: hooksOn('BeforeTool', [printing({}, { name: 'bg', async: true })]) },
});
const auth = writeAuthFile(dir, ['acme']);
const t = auth.tokens as Record<string, string>;

let redis: RedisServer;
let server: LiveServer;
let client: Redis;
beforeAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  redis = await RedisServer.start();
  client = new Redis(redis.url);
  server = await serveOnRedis(redis, config, ['--auth', auth.path]);
});
afterAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  await server.stop();
  client.disconnect();
  await redis.stop();
});

describeRedis('hostile entries in a tenant event stream', () => {
  it('are skipped: the replica keeps serving and the client sees only well-formed events', async () => {
    const acme = await SseStream.open(server.url, t.acme!);
    const key = 'hookwarden:events:t:acme';
    await client.xadd(key, '*', 'type', 'async.completed', 'data', 'not json');
    await client.xadd(key, '*', 'type', 'rewake\ndata: {"forged":true}\n\nevent: rewake', 'data', '{}');
    await client.xadd(key, '*', 'nothing', 'here');
    await client.xadd(key, '*', 'type', 'async.completed', 'data', '[1,2]');
    const r = await post(`${server.url}/v1/dispatch/BeforeTool`, t.acme!, {
      toolName: 'Bash',
      toolInput: {},
    });
    expect(r.status).toBe(200);
    const asyncId = r.body.hooks[0].asyncId as string;
    const first = await acme.next();
    expect(first).toMatchObject({ event: 'async.completed', data: { asyncId, tenant: 'acme' } });
    expect(acme.pending()).toEqual([]);
    expect((await get(`${server.url}/readyz`)).status).toBe(200);
    acme.close();
  });
});

describeRedis('a place reserved for a job that Redis then refused', () => {
  it('is given back: a failed enqueue does not leak a maxAsyncQueued place', async () => {
    // A Redis user that may INCR/DECR but not run scripts: BullMQ's add (a Lua script) fails after
    // the tenant's place was counted.
    await client.call('ACL', 'SETUSER', 'noscripts', 'on', '>pw', '~*', '&*', '+@all', '-eval', '-evalsha');
    const url = `redis://noscripts:pw@127.0.0.1:${redis.port}`;
    const hw = await createExecutor({
      config: hooksOn('BeforeTool', [printing({}, { name: 'bg', async: true, onError: 'skip' })]),
      queue: { redis: url, prefix: 'leak', work: false },
      onWarning: () => {},
    });
    try {
      const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: {} }));
      expect(r.hooks[0]).toMatchObject({ outcome: 'error', error: { code: 'queue_unavailable' } });
      expect(Number((await client.get('leak:async:reserved:none')) ?? '0')).toBe(0);
    } finally {
      await hw.close();
    }
  });
});
