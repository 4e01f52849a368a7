// `rediss://` means TLS on every connection hookwarden opens to Redis, BullMQ's worker connections
// included: none may send the Redis password in clear. A real TCP listener on loopback stands in for
// the TLS Redis and records the first bytes of each connection (a TLS ClientHello starts 0x16).
import { createServer, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createExecutor } from '../../src/index.js';
import { HANG_MS } from '../helpers/serve.js';

const firsts: Buffer[] = [];
const sockets = new Set<Socket>();
let waiter: (() => void) | undefined;
const server = createServer((s) => {
  sockets.add(s);
  s.on('error', () => {});
  s.once('data', (d) => {
    firsts.push(d);
    waiter?.();
  });
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

const connections = (n: number) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('fewer connections than expected')), HANG_MS);
    waiter = () => {
      if (firsts.length >= n) {
        clearTimeout(t);
        resolve();
      }
    };
    waiter();
  });

describe('rediss://', () => {
  it('every connection (queue, worker, blocking) starts a TLS handshake; the password never goes in clear', async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    const opening = createExecutor({
      config: {},
      queue: { redis: `rediss://hw:s3cretpw@127.0.0.1:${port}` },
      onWarning: () => {},
    });
    await connections(3);
    for (const s of sockets) s.destroy();
    const hw = await opening;
    await hw.close();
    for (const f of firsts) {
      expect(f.includes('s3cretpw')).toBe(false);
      expect(f[0]).toBe(0x16);
    }
  });
});
