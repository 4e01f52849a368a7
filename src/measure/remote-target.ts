// `hookwarden bench --url URL --token TOKEN`: the dispatches go to a running `hookwarden serve`
// (POST /v1/dispatch/{event}) instead of an executor in this process, over keep-alive connections
// (one per dispatch in flight), so the figures are what the clients of a deployment see: HTTP,
// authentication and the server's own queueing included. The server's configuration and the
// token's tenant decide which hooks run. The baselines still run here, on the client's machine.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { HookwardenError } from '../contract/hookwarden-error.js';
import type { DispatchResult } from '../contract/result.js';
import type { DispatchInput } from '../contract/types.js';
import type { DispatchOptions } from '../dispatch/dispatcher.js';
import type { BenchOptions } from './bench-options.js';

/** What the bench needs of an executor. */
export interface DispatchTarget {
  dispatch(event: string, input?: DispatchInput, options?: DispatchOptions): Promise<DispatchResult>;
  close(): Promise<void>;
}

/** Rejects options that make no sense against a server (its configuration and the token decide). */
export function checkRemoteOptions(options: BenchOptions): void {
  if (options.url === undefined) return;
  const problems: string[] = [];
  let url: URL | undefined;
  try {
    url = new URL(options.url);
  } catch {}
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    problems.push(`url: expected http://HOST:PORT or https://HOST:PORT, got ${JSON.stringify(options.url)}`);
  if (options.token === undefined || options.token === '')
    problems.push('token: a server needs a bearer token (`hookwarden serve token`)');
  if (options.config !== undefined || options.policy !== undefined)
    problems.push("config, policy: the server's configuration applies; give them to `hookwarden serve`");
  if (options.tenants !== undefined && options.tenants !== 1)
    problems.push("tenants: against a server the token's tenant runs every dispatch");
  if (problems.length > 0) throw new HookwardenError('invalid_options', problems.join('; '), { problems });
}

const ERRORS: Readonly<Record<number, 'invalid_input' | 'unknown_event'>> = {
  400: 'invalid_input',
  404: 'unknown_event',
};

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (d: string) => (text += d));
    res.on('end', () => resolve(text));
    res.on('error', reject);
  });
}

/** A DispatchTarget posting to `url` with `token`, with up to `connections` keep-alive connections. */
export function remoteTarget(url: string, token: string, connections: number): DispatchTarget {
  const base = new URL(url);
  const secure = base.protocol === 'https:';
  const agent = new (secure ? HttpsAgent : HttpAgent)({ keepAlive: true, maxSockets: connections });
  const send = secure ? httpsRequest : httpRequest;
  const prefix = base.pathname.replace(/\/+$/, '');
  const dispatch = (event: string, input: DispatchInput = {}, options: DispatchOptions = {}) =>
    new Promise<DispatchResult>((resolve, reject) => {
      const body = JSON.stringify(input);
      const req = send(
        {
          agent,
          protocol: base.protocol,
          hostname: base.hostname,
          port: base.port,
          method: 'POST',
          path: `${prefix}/v1/dispatch/${encodeURIComponent(event)}`,
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
          ...(options.signal !== undefined ? { signal: options.signal } : {}),
        },
        (res) => {
          readBody(res).then((text) => {
            let answer:
              | {
                  error?: { code?: string; message?: string };
                  result?: Omit<DispatchResult, 'decision'> & Partial<Pick<DispatchResult, 'decision'>>;
                }
              | undefined;
            try {
              answer = JSON.parse(text);
            } catch {}
            // 429: some hooks were refused queue_full; the partial result counts them as failures. It
            // carries no decision that proceeds (none at all on an event that cannot deny): counted as deny.
            if (res.statusCode === 200) return resolve(answer as DispatchResult);
            if (res.statusCode === 429 && answer?.result !== undefined)
              return resolve({ ...answer.result, decision: answer.result.decision ?? 'deny' });
            const message = answer?.error?.message ?? text.slice(0, 200);
            const code = ERRORS[res.statusCode ?? 0] ?? 'invalid_options';
            reject(
              new HookwardenError(
                code,
                `${url}: HTTP ${res.statusCode} ${answer?.error?.code ?? ''}: ${message}`,
              ),
            );
          }, reject);
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) =>
        reject(
          options.signal?.aborted === true
            ? err
            : new HookwardenError(
                'invalid_options',
                `${url}: cannot reach the server (${err.code ?? err.message})`,
              ),
        ),
      );
      req.end(body);
    });
  return {
    dispatch,
    close: async () => agent.destroy(),
  };
}
