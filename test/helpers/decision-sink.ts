// A decision-log sink on 127.0.0.1, as a log service runs one: POST with a gzipped (or plain) JSON
// array of events. It can answer at once, hold each request until the test releases it (a slow
// sink), or answer an error status. Tests wait on what it received (an event per request).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll } from 'vitest';

// biome-ignore lint/suspicious/noExplicitAny: each test reads the fields it checks
export type SinkEvent = any;

export interface SinkRequest {
  readonly headers: IncomingMessage['headers'];
  readonly events: SinkEvent[];
}

const live = new Set<DecisionSink>();
afterAll(async () => {
  await Promise.all([...live].map((s) => s.close()));
});

export class DecisionSink {
  readonly requests: SinkRequest[] = [];
  /** How to answer: a status, or 'hold' (the response waits for release()). */
  mode: number | 'hold' = 200;
  readonly #held: ServerResponse[] = [];
  readonly #server: Server;
  #waiters: { check: () => boolean; wake: () => void }[] = [];

  private constructor(server: Server) {
    this.#server = server;
  }

  /** Starts a sink on `port` (0: a free one). */
  static async start(port = 0): Promise<DecisionSink> {
    const server = createServer();
    const sink = new DecisionSink(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body = Buffer.concat(chunks);
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        sink.requests.push({ headers: req.headers, events: JSON.parse(body.toString('utf8')) });
        if (sink.mode === 'hold') sink.#held.push(res);
        else res.writeHead(sink.mode).end();
        sink.#wake();
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    live.add(sink);
    return sink;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/logs`;
  }

  get events(): SinkEvent[] {
    return this.requests.flatMap((r) => r.events);
  }

  /** Answers every held request with `status`. */
  release(status = 200): void {
    for (const res of this.#held.splice(0)) res.writeHead(status).end();
  }

  #wake(): void {
    for (const w of [...this.#waiters]) if (w.check()) w.wake();
  }

  /** Resolves once `check()` holds (checked now and after each request). */
  until(check: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      if (check()) return resolve();
      const waiter = {
        check,
        wake: () => {
          this.#waiters = this.#waiters.filter((w) => w !== waiter);
          resolve();
        },
      };
      this.#waiters.push(waiter);
    });
  }

  close(): Promise<void> {
    live.delete(this);
    this.release();
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** A loopback port nothing listens on (bound, then closed). */
export async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
