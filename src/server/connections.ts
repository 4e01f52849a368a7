// What the server knows of each client connection: its requests still unanswered, and one abort
// controller for the dispatches it carries. When the connection closes before they are answered
// (the client went away), those dispatches are aborted (their hooks killed: nobody waits for the
// verdict) and their requests are logged. One controller and one `close` listener per connection,
// not per request: with keep-alive clients their cost is paid once (an AbortSignal whose listener
// limit is lifted costs microseconds, about as much as a fast-path dispatch). The last token
// verified on a connection is remembered too (auth.ts).
import { setMaxListeners } from 'node:events';
import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { VerifiedHeader } from './auth.js';

export interface Connection {
  /** Requests received and not answered yet (HTTP/1.1 pipelining allows several). */
  readonly requests: Set<FastifyRequest>;
  controller: AbortController | undefined;
  /** The last Authorization header verified on this connection (auth.ts). */
  verified: VerifiedHeader | undefined;
}

export class Connections {
  readonly #bySocket = new WeakMap<Socket, Connection>();
  readonly #onGone: (request: FastifyRequest) => void;

  /** `onGone` is called for each unanswered request of a connection that closed. */
  constructor(onGone: (request: FastifyRequest) => void) {
    this.#onGone = onGone;
  }

  #of(socket: Socket): Connection {
    let c = this.#bySocket.get(socket);
    if (c === undefined) {
      const conn: Connection = { requests: new Set(), controller: undefined, verified: undefined };
      c = conn;
      this.#bySocket.set(socket, conn);
      socket.once('close', () => {
        conn.controller?.abort(new Error('the client went away'));
        for (const r of [...conn.requests]) this.#onGone(r);
        conn.requests.clear();
      });
    }
    return c;
  }

  /** A request arrived; its connection's state. */
  opened(request: FastifyRequest): Connection {
    const c = this.#of(request.raw.socket);
    c.requests.add(request);
    return c;
  }

  /** A request was answered (or logged as abandoned). */
  closed(request: FastifyRequest): void {
    this.#bySocket.get(request.raw.socket)?.requests.delete(request);
  }

  /** The abort controller of the request's connection (aborted when it closes). */
  controllerOf(request: FastifyRequest): AbortController {
    const c = this.#of(request.raw.socket);
    if (c.controller === undefined) {
      c.controller = new AbortController();
      // Each hook of each dispatch links to it while it runs: a fan-out passes 10 listeners at once.
      setMaxListeners(0, c.controller.signal);
    }
    return c.controller;
  }
}
