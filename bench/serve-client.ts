// What the serve scenarios share: a server process started as deployed, and keep-alive undici
// clients that POST the bench input (load at a fixed concurrency, or a flood until told to stop).
import { type ChildProcess, spawn } from 'node:child_process';
import type { Pool } from 'undici';
import { BENCH_INPUT } from './harness.js';

const BODY = JSON.stringify(BENCH_INPUT);

export interface Proc {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a process that prints {"listening": url} first (with `env`, default this process's). */
export function startProcess(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Proc> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'], env });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before listening`)));
    child.stdout!.on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      const { listening } = JSON.parse(out.slice(0, out.indexOf('\n'))) as { listening: string };
      child.removeAllListeners('exit');
      resolve({
        url: listening,
        child,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** A refused dispatch (429, `queue_full`): the client should come back after `retryAfterS`. */
class Refused extends Error {
  constructor(readonly retryAfterS: number) {
    super(`HTTP 429, Retry-After ${retryAfterS}`);
  }
}

/**
 * POSTs the bench input; throws Refused on a 429 and rejects on any other status but 200 (a broken
 * setup cannot pass for a result).
 */
export async function post(pool: Pool, token: string | undefined, event = 'BeforeTool'): Promise<string> {
  const res = await pool.request({
    path: `/v1/dispatch/${event}`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: BODY,
  });
  const text = await res.body.text();
  if (res.statusCode === 429) throw new Refused(Number(res.headers['retry-after'] ?? 1));
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
  return text;
}

/** Runs `n` calls of `fn`, `concurrency` at a time, and returns their latencies (ms). */
export async function load(fn: () => Promise<unknown>, n: number, concurrency: number): Promise<number[]> {
  const out: number[] = [];
  let next = 0;
  const lane = async () => {
    while (next < n) {
      next++;
      const t = performance.now();
      await fn();
      out.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return out;
}

/**
 * Calls `fn` `concurrency` at a time until `stop` resolves; returns how many finished and how many
 * were refused (429: that caller waits Retry-After, as a well-behaved client does).
 */
export async function flood(
  fn: () => Promise<unknown>,
  concurrency: number,
  stop: Promise<void>,
): Promise<{ done: number; refused: number }> {
  let stopped = false;
  let done = 0;
  let refused = 0;
  void stop.then(() => (stopped = true));
  const lane = async () => {
    while (!stopped) {
      try {
        await fn();
        done++;
      } catch (err) {
        if (!(err instanceof Refused)) throw err;
        refused++;
        await new Promise((r) => setTimeout(r, err.retryAfterS * 1000));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { done, refused };
}
