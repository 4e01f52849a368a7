// Runs the real `hookwarden serve` (the built CLI) on 127.0.0.1 and talks to it over HTTP.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { newToken, type TokenEntry } from '../../src/server/tokens.js';
import { BIN } from './cli.js';

/** Generous bound that only catches a hang. */
export const HANG_MS = 60_000;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface LiveServer {
  /** '' when it listens on a --socket only. */
  readonly url: string;
  /** The absolute path of its --socket, if any. */
  readonly socket: string | undefined;
  readonly metricsUrl: string | undefined;
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Parsed JSON log lines so far (stderr). */
  readonly logs: () => Record<string, unknown>[];
  /** Resolves with the first log line (now or later) that `match` accepts. */
  readonly waitForLog: (
    match: (line: Record<string, unknown>) => boolean,
  ) => Promise<Record<string, unknown>>;
  /** Resolves once `count` log lines match (lines are batched: they come up to 250 ms late). */
  readonly waitForLogs: (
    match: (line: Record<string, unknown>) => boolean,
    count: number,
  ) => Promise<Record<string, unknown>[]>;
  readonly done: Promise<Exit>;
  /** Sends `signal` (default SIGTERM) and waits for the process to end. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<Exit>;
}

const live = new Set<LiveServer>();
afterAll(async () => {
  await Promise.all([...live].map((s) => s.stop()));
});

function parseLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line));
    } catch {}
  }
  return out;
}

/** Starts `hookwarden serve <args>` and resolves once it prints its listening line. */
export function startServe(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<LiveServer> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const logWaiters: {
    match: (l: Record<string, unknown>) => boolean;
    count: number;
    resolve: (l: Record<string, unknown>[]) => void;
  }[] = [];
  const checkLogs = () => {
    if (logWaiters.length === 0) return;
    const lines = parseLines(stderr);
    for (const w of logWaiters.splice(0)) {
      const hits = lines.filter(w.match);
      if (hits.length >= w.count) w.resolve(hits);
      else logWaiters.push(w);
    }
  };
  const waitForLogs = (match: (l: Record<string, unknown>) => boolean, count: number) =>
    new Promise<Record<string, unknown>[]>((res) => {
      logWaiters.push({ match, count, resolve: res });
      checkLogs();
    });
  child.stderr!.on('data', (d) => {
    stderr += d;
    checkLogs();
  });
  const done = new Promise<Exit>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      const before = stdout;
      stdout += d;
      if (before.includes('\n') || !stdout.includes('\n')) return;
      const line = JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as {
        listening?: string;
        socket?: string;
        metrics?: string;
      };
      const server: LiveServer = {
        url: line.listening ?? '',
        socket: line.socket,
        metricsUrl: line.metrics,
        child,
        stdout: () => stdout,
        stderr: () => stderr,
        logs: () => parseLines(stderr),
        waitForLog: async (match) => (await waitForLogs(match, 1))[0]!,
        waitForLogs,
        done,
        stop: async (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          const exit = await done;
          live.delete(server);
          return exit;
        },
      };
      live.add(server);
      resolve(server);
    });
    done.then((r) => reject(new Error(`serve ended (${r.code ?? r.signal}) before listening: ${r.stderr}`)));
  });
}

/** Writes an auth file for `who` (tenant ids, or 'admin') and returns each one's token. */
export function writeAuthFile(
  dir: string,
  who: string[],
  name = 'auth.json',
): { path: string; tokens: Record<string, string> } {
  const tokens: Record<string, string> = {};
  const entries: TokenEntry[] = [];
  for (const w of who) {
    const made = newToken(w === 'admin' ? { admin: true } : { tenant: w });
    tokens[w] = made.token;
    entries.push(made.entry);
  }
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ tokens: entries }), { mode: 0o600 });
  return { path, tokens };
}

/** A parsed answer: its shape is what the tests assert. */
// biome-ignore lint/suspicious/noExplicitAny: each test checks the fields it reads
type Answer = any;

/** POSTs a JSON body (a string is sent as is) with a bearer token; returns status, headers and parsed body. */
export async function post(
  url: string,
  token: string | undefined,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Answer }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

export async function get(
  url: string,
  token?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string; body: Answer }> {
  const res = await fetch(url, {
    headers: { ...(token === undefined ? {} : { authorization: `Bearer ${token}` }), ...headers },
  });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, text, body };
}

/** The value of one Prometheus sample (`name{labels}`), or undefined when the series does not exist. */
export function metricValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const m = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null) continue;
    const have = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[2]);
  }
  return undefined;
}

/** What came back on a raw connection: the first response's status (0: none), and every byte. */
export interface RawAnswer {
  status: number;
  text: string;
}

/**
 * Sends `chunks` over one TCP connection to 127.0.0.1:`port` and collects what comes back until the
 * server closes it (the requests say `Connection: close`, or are ones the server must cut off).
 * `end` half-closes the connection after the chunks: a client that stops sending.
 */
export function rawExchange(
  port: number,
  chunks: (string | Buffer)[],
  options: { end?: boolean } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err);
    });
    socket.on('close', () => {
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: m === null ? 0 : Number(m[1]), text });
    });
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
      if (options.end === true) socket.end();
    });
    socket.setTimeout(HANG_MS, () => socket.destroy(new Error('no answer: hang')));
  });
}
