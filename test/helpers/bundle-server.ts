// A real HTTP server on 127.0.0.1 that serves bundles the way a static file server or a CDN does
// (ETag, 304 to a matching If-None-Match), and misbehaves on request: a status, a redirect, a body cut
// short after some bytes. Every request is logged, and a test can wait for the next one (no sleeps).
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { afterAll } from 'vitest';
import { tgzOf } from './tar.js';

export interface Route {
  body?: Buffer;
  etag?: string;
  status?: number;
  headers?: Record<string, string>;
  /** Send a Content-Length for the whole body but only this many bytes, then drop the connection. */
  cutAfter?: number;
  /** Send the body without a Content-Length (chunked). */
  chunked?: boolean;
}

export interface Seen {
  path: string;
  ifNoneMatch: string | undefined;
  status: number;
}

export class BundleServer {
  readonly routes = new Map<string, Route>();
  readonly requests: Seen[] = [];
  readonly #server: Server;
  #waiters: ((s: Seen) => void)[] = [];
  base = '';

  constructor() {
    this.#server = createServer((req, res) => {
      const path = req.url ?? '/';
      const route = this.routes.get(path);
      const ifNoneMatch = req.headers['if-none-match'];
      const seen = (status: number) => {
        const s = { path, ifNoneMatch, status };
        this.requests.push(s);
        for (const w of this.#waiters.splice(0)) w(s);
      };
      if (route === undefined) {
        res.writeHead(404).end('not found');
        return seen(404);
      }
      if (route.etag !== undefined && ifNoneMatch === route.etag) {
        res.writeHead(304, { etag: route.etag }).end();
        return seen(304);
      }
      const status = route.status ?? 200;
      const body = route.body ?? Buffer.alloc(0);
      const headers: Record<string, string | number> = { ...route.headers };
      if (route.etag !== undefined) headers.etag = route.etag;
      if (route.chunked !== true) headers['content-length'] = body.length;
      res.writeHead(status, headers);
      seen(status);
      if (route.cutAfter !== undefined) {
        res.write(body.subarray(0, route.cutAfter), () => res.destroy());
        return;
      }
      if (route.chunked === true) {
        for (let i = 0; i < body.length; i += 64 * 1024) res.write(body.subarray(i, i + 64 * 1024));
        res.end();
        return;
      }
      res.end(body);
    });
    afterAll(() => this.close());
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this.base;
  }

  url(path: string): string {
    return `${this.base}${path}`;
  }

  /** Resolves with the next request the server answers. */
  nextRequest(): Promise<Seen> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** A .tar.gz of every file under `dir` (no checks: for building tampered bundles). */
export function tgzOfDir(dir: string): Buffer {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
  return tgzOf(files.map((f) => ({ path: relative(dir, f), data: readFileSync(f), mode: 0o755 })));
}
