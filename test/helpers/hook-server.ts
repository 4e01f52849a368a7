// A real HTTP server on 127.0.0.1 (port 0) that plays an http hook's server: it records every request
// (method, path, headers, body), answers with what the test's handler says, and tracks its open
// connections, so a test can see a connection closed from the other side. Tests wait on events
// (`nextRequest`, `connectionClosed`), never on sleeps. Every server is closed after its file.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll } from 'vitest';

interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** Answers one request; `req` carries the recorded body. */
export type HookHandler = (req: SeenRequest, res: ServerResponse) => void;

export interface HookServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  readonly requests: SeenRequest[];
  /** Resolves with the next request (or the earliest one not yet taken). */
  nextRequest(): Promise<SeenRequest>;
  /** Connections open now. */
  openConnections(): number;
  /** Resolves when every connection the server has seen so far is closed. */
  allClosed(): Promise<void>;
  setHandler(handler: HookHandler): void;
  close(): Promise<void>;
}

const servers: HookServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** JSON answer helper. */
export function json(res: ServerResponse, body: unknown, status = 200): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startHookServer(handler: HookHandler): Promise<HookServer> {
  let current = handler;
  const requests: SeenRequest[] = [];
  let taken = 0;
  const waiting: ((r: SeenRequest) => void)[] = [];
  const sockets = new Set<Socket>();
  const closedWaiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      const w = waiting.shift();
      if (w !== undefined) {
        taken++;
        w(seen);
      }
      current(seen, res);
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => {
      sockets.delete(s);
      if (sockets.size === 0) for (const w of closedWaiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const hs: HookServer = {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    nextRequest: () =>
      taken < requests.length
        ? Promise.resolve(requests[taken++]!)
        : new Promise<SeenRequest>((resolve) => waiting.push(resolve)),
    openConnections: () => sockets.size,
    allClosed: () =>
      sockets.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => closedWaiters.push(resolve)),
    setHandler: (h) => {
      current = h;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  servers.push(hs);
  return hs;
}
