// Downloads a bundle with Node's built-in fetch: a conditional GET (If-None-Match), redirects
// followed by hand (at most 5, each hop checked like the pin's URL), the body read with a byte cap
// (Content-Length first, then while streaming), one deadline for the whole exchange. Failures are
// data, never exceptions: the caller keeps its last known good bundle.
import { bundleUrlProblem } from './url-pin-fields.js';

/** How many redirects are followed (release hosts redirect once or twice to their storage). */
const MAX_REDIRECTS = 5;

export type FetchResult =
  | { readonly kind: 'not-modified' }
  | { readonly kind: 'ok'; readonly bytes: Buffer; readonly etag: string | undefined }
  | { readonly kind: 'failed'; readonly problem: string };

export interface FetchOptions {
  /** Sent as If-None-Match. */
  readonly etag: string | undefined;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  /** Aborted when the executor closes. */
  readonly signal?: AbortSignal | undefined;
}

/** Reads a response body, refusing it past `maxBytes`. */
async function readCapped(res: Response, maxBytes: number): Promise<Buffer | string> {
  const declared = Number(res.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel();
    return `the bundle is ${declared} bytes; at most ${maxBytes} are accepted (remotePacks.maxBundleBytes)`;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  if (res.body === null) return Buffer.alloc(0);
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return `the bundle is larger than ${maxBytes} bytes (remotePacks.maxBundleBytes)`;
    }
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  return Buffer.concat(chunks, total);
}

const describe = (err: unknown): string => {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return 'timed out';
  if (e.name === 'AbortError') return 'aborted';
  const cause = e.cause?.code ?? e.cause?.message;
  return cause === undefined ? e.message : `${e.message} (${cause})`;
};

export async function fetchBundle(url: string, options: FetchOptions): Promise<FetchResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  const headers: Record<string, string> = {
    accept: 'application/gzip, application/octet-stream;q=0.9, */*;q=0.1',
    'accept-encoding': 'identity',
  };
  if (options.etag !== undefined) headers['if-none-match'] = options.etag;
  let current = url;
  try {
    for (let hop = 0; ; hop++) {
      const res = await fetch(current, { headers, redirect: 'manual', signal });
      if (res.status >= 300 && res.status < 400 && res.status !== 304) {
        await res.body?.cancel();
        const location = res.headers.get('location');
        if (location === null) return { kind: 'failed', problem: `HTTP ${res.status} without a Location` };
        if (hop >= MAX_REDIRECTS) return { kind: 'failed', problem: `more than ${MAX_REDIRECTS} redirects` };
        const next = new URL(location, current).href;
        const problem = bundleUrlProblem(next);
        if (problem !== undefined) return { kind: 'failed', problem: `redirected to ${next}: ${problem}` };
        current = next;
        continue;
      }
      if (res.status === 304) {
        await res.body?.cancel();
        return { kind: 'not-modified' };
      }
      if (res.status !== 200) {
        await res.body?.cancel();
        return { kind: 'failed', problem: `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}` };
      }
      const body = await readCapped(res, options.maxBytes);
      if (typeof body === 'string') return { kind: 'failed', problem: body };
      const etag = res.headers.get('etag') ?? undefined;
      return { kind: 'ok', bytes: body, etag: etag !== undefined && etag.length <= 1024 ? etag : undefined };
    }
  } catch (err) {
    return { kind: 'failed', problem: `download failed: ${describe(err)}` };
  }
}
