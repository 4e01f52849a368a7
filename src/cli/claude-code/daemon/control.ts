// `hookwarden daemon status|stop` (and `claude-code daemon …`): every daemon of this user (each socket of the daemon
// directory, places.ts), asked over its socket (a 'status' or 'stop' request, wire.ts). A socket
// nobody answers on is stale (left by a daemon that was killed): `stop` removes it.
import { existsSync, lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { daemonDir, daemonDirProblem, SOCKET_NAME } from './places.js';
import { FrameReader, type RequestKind, requestFrame } from './wire.js';

export interface DaemonReport {
  readonly socket: string;
  /** The daemon's status, or why it did not give one. */
  readonly status: Record<string, unknown> | { readonly error: string };
}

/** How long a daemon has to answer status or stop. */
const ASK_MS = 5_000;

/** Sends `kind` to the daemon on `socket`; resolves with its JSON answer or an error. */
export function askDaemon(socket: string, kind: RequestKind): Promise<DaemonReport['status']> {
  return new Promise((resolve) => {
    const reader = new FrameReader();
    const conn = connect(socket);
    let settled = false;
    const done = (v: DaemonReport['status']) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done({ error: `no answer within ${ASK_MS / 1000} s` }), ASK_MS);
    conn.on('connect', () =>
      conn.write(requestFrame({ kind, cwd: process.cwd(), args: [], env: Object.create(null) })),
    );
    conn.on('data', (d: Buffer) => {
      reader.push(d);
      let payload: Buffer | undefined;
      try {
        payload = reader.next(16 * 1024 * 1024);
      } catch (err) {
        return done({ error: (err as Error).message });
      }
      if (payload === undefined) return;
      if (payload[0] !== 0x4a /* J */) return done({ error: payload.toString('utf8', 1, 500) });
      try {
        done(JSON.parse(payload.toString('utf8', 1)) as Record<string, unknown>);
      } catch {
        done({ error: 'not JSON' });
      }
    });
    conn.on('error', (err: NodeJS.ErrnoException) =>
      done({
        error: err.code === 'ECONNREFUSED' ? 'stale socket: no daemon listens' : (err.code ?? err.message),
      }),
    );
    conn.on('close', () => done({ error: 'closed without an answer' }));
  });
}

/** The daemon sockets of this user. */
export function daemonSockets(dir = daemonDir()): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => SOCKET_NAME.test(n))
      .map((n) => join(dir, n))
      .filter((p) => lstatSync(p).isSocket());
  } catch {
    return [];
  }
}

async function daemonReports(kind: 'status' | 'stop'): Promise<DaemonReport[]> {
  const dir = daemonDir();
  if (daemonDirProblem(dir) !== undefined) return [];
  return Promise.all(
    daemonSockets(dir).map(async (socket) => ({ socket, status: await askDaemon(socket, kind) })),
  );
}

/** Waits (bounded) until `pid` has exited after a stop. */
async function exited(pid: number, withinMs: number): Promise<boolean> {
  const end = Date.now() + withinMs;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function describe(r: DaemonReport): string {
  const s = r.status as Record<string, unknown>;
  if ('error' in s) return `${r.socket}: ${String(s.error)}`;
  const calls = s.calls as { answered: number; fellBack: number; running: number };
  return [
    `pid ${s.pid} (hookwarden ${s.version}), up since ${s.startedAt}, last call ${s.lastCallAt ?? 'none'}`,
    `  answered ${calls.answered}, fell back ${calls.fellBack}, running ${calls.running}; exits after ${s.idleTimeoutSeconds} s idle`,
    `  runs: hookwarden ${(s.args as string[]).join(' ')}  (root ${s.root})`,
    ...Object.entries((s.answerMs ?? {}) as Record<string, { n: number; p50: number; p99: number }>).map(
      ([kind, t]) => `  its answers, ${kind}: p50 ${t.p50} ms, p99 ${t.p99} ms (last ${t.n})`,
    ),
    `  socket: ${r.socket}`,
    `  log: ${s.log ?? 'its stderr'}`,
    ...((s.warnings as string[]).length === 0 ? [] : [`  warnings: ${(s.warnings as string[]).join('; ')}`]),
  ].join('\n');
}

export async function runDaemonStatus(flags: { json?: boolean }): Promise<number> {
  const reports = await daemonReports('status');
  const dir = daemonDir();
  const problem = existsSync(dir) ? daemonDirProblem(dir) : undefined;
  if (flags.json === true) process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
  else if (problem !== undefined)
    process.stdout.write(
      `no daemon can run for this user: ${problem} (every hook call runs the Node adapter)\n`,
    );
  else if (reports.length === 0)
    process.stdout.write(`no hookwarden daemon runs for this user (sockets: ${dir})\n`);
  else process.stdout.write(`${reports.map(describe).join('\n')}\n`);
  return 0;
}

export async function runDaemonStop(flags: { json?: boolean }): Promise<number> {
  const reports = await daemonReports('stop');
  const lines: string[] = [];
  for (const r of reports) {
    const s = r.status as Record<string, unknown>;
    if ('error' in s) {
      if (String(s.error).startsWith('stale socket')) {
        unlinkSync(r.socket);
        lines.push(`${r.socket}: removed (stale: no daemon listened)`);
      } else lines.push(`${r.socket}: ${String(s.error)}`);
      continue;
    }
    const gone = await exited(Number(s.pid), 10_000);
    lines.push(`${gone ? 'stopped' : 'asked to stop (still running)'} pid ${s.pid}: ${r.socket}`);
  }
  if (flags.json === true) process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
  else
    process.stdout.write(
      lines.length === 0 ? 'no hookwarden daemon runs for this user\n' : `${lines.join('\n')}\n`,
    );
  return 0;
}
