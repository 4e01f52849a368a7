// The http lane: every http hook's request, with Node's built-in fetch. One POST, no redirect
// followed (a 3xx is the answer), the hook's deadline over the whole exchange, the body read as a
// stream and given up past its cap. Each request has its own connection (`Connection: close`), so
// no socket is left in a keep-alive pool after it: the dispatch's abort and close() abort what is
// in flight, and close() waits until every request has let go of its connection.
import { type LaneResult, type LaneRunOptions, refusal } from './lane.js';
import { LinkedAbort } from './linked-abort.js';

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

export type HttpOutcome = { readonly durationMs: number } & (
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
  | { readonly kind: 'failed'; readonly message: string; readonly cause: string | undefined }
);

/** Requests in flight in this process (read by the test suite's leak check). */
export const OPEN_HTTP_REQUESTS = new Set<Promise<unknown>>();

class BodyTooLarge extends Error {
  constructor(readonly actualBytes: number | undefined) {
    super('body too large');
  }
}

/** Reads a 2xx body as UTF-8, giving up past `maxBytes` (Content-Length first, then while streaming). */
async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLarge(declared);
  if (res.body === null) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge(undefined);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString('utf8');
}

/** The system's or undici's error code of a failed fetch (ECONNREFUSED, UND_ERR_SOCKET…). */
function causeOf(err: unknown): { message: string; cause: string | undefined } {
  const e = err as Error & { cause?: { code?: unknown; message?: unknown } };
  const code = typeof e.cause?.code === 'string' ? e.cause.code : undefined;
  const detail = typeof e.cause?.message === 'string' ? e.cause.message : undefined;
  return { message: detail ?? e.message ?? String(err), cause: code };
}

export class HttpLane {
  readonly #closing: AbortSignal;
  readonly #running = new Set<Promise<unknown>>();

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
    const exchange = this.#exchange(request, link.signal);
    this.#running.add(exchange);
    OPEN_HTTP_REQUESTS.add(exchange);
    try {
      const value = await exchange;
      const durationMs = performance.now() - started;
      if (link.signal.aborted && !timedOut)
        return refusal(this.#closing.aborted && !signal?.aborted ? 'pool_closed' : 'aborted', 0, true);
      if (timedOut) return { ran: true, value: { kind: 'timeout', durationMs }, queuedMs: 0 };
      return { ran: true, value: { ...value, durationMs }, queuedMs: 0 };
    } finally {
      clearTimeout(timer);
      link.dispose();
      this.#running.delete(exchange);
      OPEN_HTTP_REQUESTS.delete(exchange);
    }
  }

  /** The request and its answer; never rejects. */
  async #exchange(
    request: HttpRequest,
    signal: AbortSignal,
  ): Promise<DistributiveOmit<HttpOutcome, 'durationMs'>> {
    let res: Response;
    try {
      res = await fetch(request.url, {
        method: 'POST',
        headers: {
          ...request.headers,
          'content-type': 'application/json',
          // The body's bytes are what the cap counts: no decompression (and no compression bomb).
          'accept-encoding': 'identity',
          connection: 'close',
        },
        body: request.body,
        redirect: 'manual',
        signal,
      });
    } catch (err) {
      return { kind: 'failed', ...causeOf(err) };
    }
    try {
      if (res.status < 200 || res.status > 299) {
        await res.body?.cancel().catch(() => {});
        const raw = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
        let location: string | undefined;
        if (raw !== null) {
          try {
            location = new URL(raw, request.url).href;
          } catch {
            location = raw;
          }
        }
        return { kind: 'response', status: res.status, location, body: '' };
      }
      const body = await readCapped(res, request.maxBodyBytes);
      return { kind: 'response', status: res.status, location: undefined, body };
    } catch (err) {
      await res.body?.cancel().catch(() => {});
      if (err instanceof BodyTooLarge)
        return { kind: 'output_limit', limitBytes: request.maxBodyBytes, actualBytes: err.actualBytes };
      return { kind: 'failed', ...causeOf(err) };
    }
  }

  /** Waits for every request in flight to end (close() has aborted them through the closing signal). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.#running]);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
