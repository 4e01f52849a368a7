// The http lane: every http hook's request. One POST, no redirect followed (a 3xx is the answer), the
// hook's deadline over the whole exchange, the body read as a stream and given up past its cap. Each
// request has a connection of its own, closed when it ends: the dispatch's abort and close() abort
// what is in flight, and close() returns once every connection is closed.
//
// node:http / node:https rather than the built-in fetch: fetch shares undici's global connection
// pool, and after an aborted request undici opens a fresh idle connection to the same server that
// stays up for its keep-alive timeout (4 s, measured on Node 20.20): a socket that outlives the
// request and the executor. A request without an agent has exactly one socket, destroyed with it.
//
// node:http and node:https are required on the first request: a one-shot CLI dispatch without an http
// hook (the common case) does not load them (~4 ms on Node 20).
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import { createRequire } from 'node:module';
import { type Lane, type LaneResult, type LaneRunOptions, refusal } from './lane.js';
import { LinkedAbort } from './linked-abort.js';

const require = createRequire(import.meta.url);
const requestFor = (protocol: string): typeof Http.request =>
  protocol === 'https:'
    ? (require('node:https') as typeof Https).request
    : (require('node:http') as typeof Http).request;

/** What a dispatch hands the http lane. */
export interface HttpRequest {
  /** Normalised, admitted by `allowedHttpHookUrls` at load. */
  readonly url: string;
  /** Lower-case names; values already filled. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly deadlineMs: number;
  /** Largest response body read. */
  readonly maxBodyBytes: number;
}

export type HttpOutcome = { readonly durationMs: number } & Exchange;

type Exchange =
  | {
      readonly kind: 'response';
      readonly status: number;
      /** Of a 3xx, resolved against the URL. */
      readonly location: string | undefined;
      /** The body of a 2xx (empty for other statuses: it is not read). */
      readonly body: string;
    }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'output_limit'; readonly limitBytes: number; readonly actualBytes: number | undefined }
  | { readonly kind: 'failed'; readonly message: string; readonly cause: string | undefined };

/** Requests whose connection is not closed yet, in this process (read by the test suite's leak check). */
export const OPEN_HTTP_REQUESTS = new Set<Promise<unknown>>();

/** The system's error code and message of a failed request (ECONNREFUSED, ENOTFOUND, CERT_…). */
function failure(err: unknown): Exchange {
  const e = err as NodeJS.ErrnoException;
  return {
    kind: 'failed',
    message: e.message ?? String(err),
    cause: typeof e.code === 'string' ? e.code : undefined,
  };
}

/** A 3xx's Location, resolved against the URL it answered. */
function resolveLocation(raw: string | undefined, base: string): string | undefined {
  if (raw === undefined) return undefined;
  try {
    return new URL(raw, base).href;
  } catch {
    return raw;
  }
}

export class HttpLane implements Lane<HttpRequest, HttpOutcome> {
  readonly #closing: AbortSignal;
  readonly #open = new Set<Promise<unknown>>();

  constructor(closing: AbortSignal) {
    this.#closing = closing;
  }

  async run(request: HttpRequest, options: LaneRunOptions = {}): Promise<LaneResult<HttpOutcome>> {
    const { signal } = options;
    if (this.#closing.aborted) return refusal('pool_closed', 0);
    if (signal?.aborted) return refusal('aborted', 0);
    options.onStart?.();
    const link = new LinkedAbort(signal, this.#closing);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      link.controller.abort(new Error('deadline'));
    }, request.deadlineMs);
    const started = performance.now();
    const { answer, closed } = exchange(request, link.signal);
    this.#open.add(closed);
    OPEN_HTTP_REQUESTS.add(closed);
    void closed.then(() => {
      this.#open.delete(closed);
      OPEN_HTTP_REQUESTS.delete(closed);
    });
    try {
      const value = await answer;
      const durationMs = performance.now() - started;
      // The connection is destroyed once the answer is known: the dispatch returns after it closed.
      await closed;
      if (timedOut) return { ran: true, value: { kind: 'timeout', durationMs }, queuedMs: 0 };
      if (link.signal.aborted)
        return refusal(this.#closing.aborted && !signal?.aborted ? 'pool_closed' : 'aborted', 0, true);
      return { ran: true, value: { ...value, durationMs }, queuedMs: 0 };
    } finally {
      clearTimeout(timer);
      link.dispose();
    }
  }

  /** Waits until every connection is closed (close() has aborted what was in flight: the closing signal). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#open]);
  }
}

/**
 * Sends the request on a connection of its own (no agent: nothing is pooled or reconnected) and reads
 * the answer. `answer` settles with the outcome, `closed` once the connection is closed.
 */
function exchange(
  request: HttpRequest,
  signal: AbortSignal,
): { answer: Promise<Exchange>; closed: Promise<void> } {
  const url = new URL(request.url);
  const body = Buffer.from(request.body);
  let settle!: (e: Exchange) => void;
  const answer = new Promise<Exchange>((resolve) => {
    settle = resolve;
  });
  const send = requestFor(url.protocol);
  let req: ReturnType<typeof Http.request>;
  try {
    req = send(url, {
      method: 'POST',
      agent: false,
      signal,
      headers: {
        ...request.headers,
        'content-type': 'application/json',
        'content-length': body.length,
        connection: 'close',
      },
    });
  } catch (err) {
    // Refused before a socket exists (a header Node will not send): nothing to close.
    return { answer: Promise.resolve(failure(err)), closed: Promise.resolve() };
  }
  const closed = new Promise<void>((resolve) => req.once('close', () => resolve()));
  let answered = false;
  const done = (e: Exchange) => {
    if (answered) return;
    answered = true;
    settle(e);
    // The answer is known: the connection goes with it (a server may keep it open past `close`).
    req.destroy();
  };
  req.on('error', (err) => done(failure(err)));
  req.on('response', (res) => readResponse(res, request, done));
  req.end(body);
  return { answer, closed };
}

/** Reads the answer to `request` from `res` and gives the outcome to `done` (a 2xx body up to its cap). */
function readResponse(res: Http.IncomingMessage, request: HttpRequest, done: (e: Exchange) => void): void {
  const status = res.statusCode ?? 0;
  if (status < 200 || status > 299) {
    const location = status >= 300 && status < 400 ? res.headers.location : undefined;
    res.destroy();
    done({ kind: 'response', status, location: resolveLocation(location, request.url), body: '' });
    return;
  }
  const limit = request.maxBodyBytes;
  const declared = Number(res.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    res.destroy();
    done({ kind: 'output_limit', limitBytes: limit, actualBytes: declared });
    return;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  res.on('data', (chunk: Buffer) => {
    total += chunk.length;
    if (total <= limit) chunks.push(chunk);
    else {
      res.destroy();
      done({ kind: 'output_limit', limitBytes: limit, actualBytes: undefined });
    }
  });
  res.on('end', () =>
    done({
      kind: 'response',
      status,
      location: undefined,
      body: Buffer.concat(chunks, total).toString('utf8'),
    }),
  );
  res.on('error', (err) => done(failure(err)));
  res.on('close', () => {
    if (!res.complete)
      done({
        kind: 'failed',
        message: 'the connection closed before the response ended',
        cause: undefined,
      });
  });
}
