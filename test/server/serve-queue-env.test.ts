// `serve` takes the Redis URL from $HOOKWARDEN_QUEUE_URL when --queue is not given (a URL with a
// password stays off the command line), and that variable never reaches a hook, even one that asks
// for it by name. Real serve, real redis-server (free loopback port, stopped by PID).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';
import { describeRedis, REDIS_MISSING, RedisServer } from '../helpers/redis.js';
import { get, post, startServe } from '../helpers/serve.js';

let redis: RedisServer;
beforeAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  redis = await RedisServer.start();
});
afterAll(async () => {
  if (REDIS_MISSING !== undefined) return;
  await redis.stop();
});

describeRedis('serve with $HOOKWARDEN_QUEUE_URL', () => {
  it('runs in Redis mode from the variable, and no hook can inherit it', async () => {
    const config = writeConfig(
      tempDir(),
      'hooks.json',
      hooksOn('BeforeTool', [
        {
          type: 'command',
          command: `printf '{"decision":"deny","reason":"url=%s"}' "$HOOKWARDEN_QUEUE_URL"`,
          inheritEnv: ['HOOKWARDEN_QUEUE_URL'],
        },
      ]),
    );
    const s = await startServe(['--config', config, '--listen', '127.0.0.1:0'], {
      env: { ...process.env, HOOKWARDEN_QUEUE_URL: redis.url },
    });
    const ready = await get(`${s.url}/readyz`);
    expect(ready.body.queue).toMatchObject({ mode: 'redis', redis: 'up' });
    const r = await post(`${s.url}/v1/dispatch/BeforeTool`, undefined, {
      toolName: 'Bash',
      toolInput: { command: 'ls' },
    });
    expect(r.status).toBe(200);
    expect(r.body.decision).toBe('deny');
    expect(r.body.reason).toBe('url=');
    await s.stop();
  });
});
