// Starting a daemon on demand. hookwarden-client found no daemon for its configuration and ran the
// adapter in process instead, with CLIENT_START_ENV set: once the adapter has answered, it starts
// `hookwarden daemon run` in the background (a new session, stdio to the log file, the adapter's own
// command and arguments), for the client's next call. At most one start per socket every
// START_THROTTLE_MS: calls that arrive while it boots, or while a configuration that cannot load
// keeps it from starting, answer in process without starting more. Dependency-free but for node:
// modules and the secret filter: the adapter's fast path loads it.
import { closeSync, mkdirSync, openSync, renameSync, statSync, utimesSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  CLIENT_FALLBACK_ENV,
  CLIENT_SOCKET_ENV,
  CLIENT_START_ENV,
  DAEMON_IDLE_ENV,
  daemonEnv,
} from './daemon-env.js';
import { daemonDir, daemonLogDir, ensureDaemonDir, SOCKET_NAME } from './places.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A start is not tried again for the same socket within this (the first may still be booting). */
const START_THROTTLE_MS = 10_000;
/** A log larger than this is moved to `<log>.1` when a daemon starts. */
const MAX_LOG_BYTES = 1024 * 1024;

/** The debug-log note of an adapter that a client fell back to (undefined: no client was involved). */
export function clientFallbackNote(env: Env = process.env): string | undefined {
  const why = env[CLIENT_FALLBACK_ENV];
  if (why === undefined || why === '') return undefined;
  return `hookwarden: the daemon was not used (${why.slice(0, 500)}): dispatched in this process`;
}

/** Flags each call brings its own of (a daemon serves every event): with a value, and without. */
const PER_CALL_VALUE = ['--timeout', '--event'];
const PER_CALL_SWITCH = ['--explicit-allow'];

/** The adapter's arguments without the per-call flags (hookwarden-client leaves them out of the socket's name too). */
function withoutPerCallFlags(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (PER_CALL_VALUE.includes(a)) i++;
    else if (!PER_CALL_SWITCH.includes(a) && !PER_CALL_VALUE.some((f) => a.startsWith(`${f}=`))) out.push(a);
  }
  return out;
}

/**
 * Whether a start for `socket` was tried less than START_THROTTLE_MS ago; if not, marks one now.
 * The marker is created exclusively: of two calls that find no daemon at once, one starts it.
 */
function throttled(socket: string): boolean {
  const marker = `${socket}.starting`;
  try {
    closeSync(openSync(marker, 'wx', 0o600));
    return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if (Date.now() - statSync(marker).mtimeMs < START_THROTTLE_MS) return true;
  const now = new Date();
  utimesSync(marker, now, now);
  return false;
}

/** Opens the daemon's log for appending (mode 0600), moving a large one aside first. */
function openLog(env: Env, socket: string): { fd: number; path: string } {
  const dir = daemonLogDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${basename(socket, '.sock')}.log`);
  try {
    if (statSync(path).size > MAX_LOG_BYTES) renameSync(path, `${path}.1`);
  } catch {
    // no log yet
  }
  return { fd: openSync(path, 'a', 0o600), path };
}

/**
 * Starts the daemon a client asked for (CLIENT_START_ENV), in the background; returns why not when
 * it did not. Never throws: the answer is out already, and a daemon is only ever a speed-up.
 */
export async function startDaemonIfAsked(
  command: string,
  args: readonly string[],
  env: Env = process.env,
): Promise<string | undefined> {
  if (env[CLIENT_START_ENV] !== '1') return 'not asked';
  // Loaded only here: the adapter's fast path never loads node:child_process.
  const { spawn } = await import('node:child_process');
  const socket = env[CLIENT_SOCKET_ENV] ?? '';
  // Only a socket in this user's daemon directory, named as the client names them.
  if (dirname(socket) !== daemonDir(env) || !SOCKET_NAME.test(basename(socket)))
    return `${CLIENT_SOCKET_ENV} is not a daemon socket of this user`;
  try {
    const problem = ensureDaemonDir(dirname(socket));
    if (problem !== undefined) return problem;
    if (throttled(socket)) return 'a start was tried moments ago';
    const log = openLog(env, socket);
    const idle = env[DAEMON_IDLE_ENV];
    const child = spawn(
      process.execPath,
      [
        process.argv[1]!,
        'daemon',
        'run',
        '--socket',
        socket,
        '--log',
        log.path,
        ...(idle === undefined || idle === '' ? [] : ['--idle-timeout', idle]),
        '--',
        command,
        ...withoutPerCallFlags(args),
      ],
      { detached: true, stdio: ['ignore', log.fd, log.fd], env: daemonEnv(env), cwd: process.cwd() },
    );
    child.on('error', () => {}); // reported in its log, or not at all: the answer is out
    child.unref();
    closeSync(log.fd);
    return undefined;
  } catch (err) {
    return `cannot start it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
}
