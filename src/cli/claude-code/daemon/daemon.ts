// `hookwarden claude-code daemon run`: the per-user daemon hookwarden-client forwards Claude Code's
// hook calls to (docs/claude-code.md, "The daemon"). It is started on demand, in the background, by
// the adapter a client fell back to (start.ts), with the adapter's own arguments; one per user and
// configuration (the client derives the socket's name from them). It keeps the configuration
// loaded, the QuickJS workers and the spawn server warm, watches its files, and exits after an idle
// period, on `daemon stop`, SIGTERM or SIGINT, or when its socket is taken from it.
//
// Its own environment is a short allow-list of non-secret variables (start.ts): every call brings
// the caller's environment, which hooks see as they would in the caller's process, and which the
// daemon holds in memory for that call only. Logs are JSON lines on stderr (the starter points it
// at a file under the user's state directory).
import { lstatSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { formatDiagnostic } from '../../../config/diagnostics.js';
import type { LoadRead } from '../../../config/read-log.js';
import { VERSION } from '../../../contract/version.js';
import {
  createExecutor,
  type Executor,
  type ExecutorInternals,
  INTERNALS,
} from '../../../executor/executor.js';
import { isAsyncHook } from '../../../registry/hook-definition.js';
import { cliExecutorOptions } from '../../one-dispatch.js';
import { UsageError } from '../../usage-error.js';
import { parseFlags, unforwardable } from '../adapter.js';
import type { AdapterFlags } from '../flags.js';
import { answerCall } from './answer-call.js';
import { AnswerTimings } from './answer-timings.js';
import { codeReads } from './code-reads.js';
import { type ConnectionHost, serveConnection } from './connection.js';
import { absoluteFlags, daemonIdentity } from './identity.js';
import { peerCredProblem } from './peer-cred.js';
import { daemonDirProblem } from './places.js';
import { manifest, type Request } from './wire.js';

export interface DaemonFlags {
  socket: string;
  idleTimeout?: string;
  log?: string;
  /** The adapter's arguments (what follows `claude-code` in the hook command). */
  args: string[];
}

/** Default idle period after which a daemon exits. */
export const DEFAULT_IDLE_SECONDS = 900;
/** At most one reload a second is started for a caller's stale digests (the watcher reloads too). */
const STALE_RELOAD_MS = 1000;

function log(level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, unknown> = {}): void {
  process.stderr.write(
    `${JSON.stringify({ time: new Date().toISOString(), level, pid: process.pid, msg, ...fields })}\n`,
  );
}

function idleSeconds(flag: string | undefined): number {
  if (flag === undefined) return DEFAULT_IDLE_SECONDS;
  if (!/^\d{1,7}(\.\d+)?$/.test(flag) || !(Number(flag) > 0))
    throw new UsageError(`--idle-timeout: expected seconds above 0, got ${JSON.stringify(flag)}`);
  return Number(flag);
}

const internalsOf = (e: Executor): ExecutorInternals =>
  (e as unknown as { [INTERNALS](): ExecutorInternals })[INTERNALS]();

/** Why a configuration is answered in process: hooks whose meaning depends on the process that runs them. */
function inProcessOnly(executor: Executor): string | undefined {
  const hooks = internalsOf(executor).hooks();
  if (hooks.some((h) => h.once))
    return 'the configuration has `once` hooks: in process each call is a new process, and so through the daemon';
  if (hooks.some((h) => isAsyncHook(h)))
    return 'the configuration has async hooks: the adapter waits for them in its own process';
  return undefined;
}

class Daemon implements ConnectionHost {
  readonly #started = new Date().toISOString();
  readonly #counts = { answered: 0, fellBack: 0 };
  #running = 0;
  #lastCall: string | undefined;
  #idle: NodeJS.Timeout | undefined;
  #lastStaleReload = 0;
  #stopping = false;
  #ino: bigint | undefined;
  /** The manifest of the executor's reads `#manifestOf` (and the code's): recomputed after a reload. */
  #manifest: { token: string; bytes: Buffer; reads: readonly LoadRead[] } | undefined;
  #manifestOf: readonly LoadRead[] | undefined;
  readonly #timings = new AnswerTimings();

  constructor(
    readonly executor: Executor,
    readonly server: Server,
    readonly own: { flags: AdapterFlags; identity: string; args: readonly string[] },
    readonly socket: string,
    readonly idleMs: number,
    readonly logFile: string | undefined,
    readonly code: readonly LoadRead[],
  ) {}

  accept(request: Request): AdapterFlags | string {
    if (this.#stopping) return 'the daemon is stopping';
    const parsed = parseFlags(request.args, request.env, request.cwd);
    if (parsed instanceof UsageError) return `the adapter's flags: ${parsed.message}`;
    const own =
      unforwardable(parsed) ?? (parsed.socket === undefined ? undefined : '--socket given to the adapter');
    if (own !== undefined) return `${own}: the adapter runs in process`;
    if (daemonIdentity(parsed, request.env, request.cwd) !== this.own.identity)
      return 'this daemon runs another configuration (config files, root, --strict, pack cache or hookwarden settings)';
    const only = inProcessOnly(this.executor);
    if (only !== undefined) return only;
    return absoluteFlags(parsed, request.cwd);
  }

  manifest(): { token: string; bytes: Buffer; reads: readonly LoadRead[] } {
    const loaded = internalsOf(this.executor).reads();
    if (this.#manifest === undefined || this.#manifestOf !== loaded) {
      const reads = [...loaded, ...this.code];
      this.#manifest = { ...manifest(reads), reads };
      this.#manifestOf = loaded;
    }
    return this.#manifest;
  }

  /** Writes the manifest beside the socket (mode 0600, replaced in one rename): clients read it. */
  writeManifest(): void {
    const tmp = `${this.socket}.reads.${process.pid}.tmp`;
    try {
      rmSync(tmp, { force: true });
      writeFileSync(tmp, this.manifest().bytes, { mode: 0o600, flag: 'wx' });
      renameSync(tmp, `${this.socket}.reads`);
    } catch (err) {
      log('warn', 'cannot write the list of files: calls run in process', {
        error: (err as NodeJS.ErrnoException).code ?? (err as Error).message,
      });
    }
  }

  async answer(flags: AdapterFlags, request: Request) {
    this.#running++;
    this.#lastCall = new Date().toISOString();
    const started = performance.now();
    try {
      const { answer, ran } = await answerCall(this.executor, {
        flags,
        input: request.input,
        env: request.env,
        deadlineMs: request.deadlineMs,
      });
      this.#timings.record(
        ran.length === 0 ? 'no hook ran' : [...new Set(ran)].sort().join('+'),
        performance.now() - started,
      );
      return answer;
    } finally {
      this.#running--;
      this.armIdle();
    }
  }

  stale(why: string): void {
    if (this.code.some((r) => why.includes(r.path))) {
      log('info', 'hookwarden itself changed on disk: exiting', { why });
      this.stop();
      return;
    }
    const now = Date.now();
    if (now - this.#lastStaleReload < STALE_RELOAD_MS) return;
    this.#lastStaleReload = now;
    log('info', 'a caller saw changed files: reloading', { why });
    this.executor.reload().catch(() => {}); // closing meanwhile
  }

  count(outcome: 'answered' | 'fellBack'): void {
    this.#counts[outcome]++;
    this.armIdle();
  }

  status() {
    return {
      pid: process.pid,
      version: VERSION,
      socket: this.socket,
      args: this.own.args,
      root: this.own.flags.root,
      startedAt: this.#started,
      lastCallAt: this.#lastCall ?? null,
      calls: { ...this.#counts, running: this.#running },
      idleTimeoutSeconds: this.idleMs / 1000,
      log: this.logFile ?? null,
      files: internalsOf(this.executor).reads().length,
      answerMs: this.#timings.summary(),
      warnings: this.executor.diagnostics.map((d) => formatDiagnostic(d)),
    };
  }

  log(level: 'info' | 'warn', msg: string, fields?: Record<string, unknown>): void {
    log(level, msg, fields);
  }

  armIdle(): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (this.#running > 0) return this.armIdle();
      log('info', 'idle: exiting', { idleTimeoutSeconds: this.idleMs / 1000 });
      this.stop();
    }, this.idleMs);
  }

  /** The socket is still this daemon's (nobody removed or replaced it). */
  ownsSocket(): boolean {
    try {
      return lstatSync(this.socket, { bigint: true }).ino === this.#ino;
    } catch {
      return false;
    }
  }

  listening(): void {
    this.#ino = lstatSync(this.socket, { bigint: true }).ino;
    this.writeManifest();
    this.armIdle();
  }

  stop(): void {
    if (this.#stopping) return;
    this.#stopping = true;
    clearTimeout(this.#idle);
    const owned = this.ownsSocket();
    this.server.close();
    if (owned) {
      unlinkSync(this.socket);
      rmSync(`${this.socket}.reads`, { force: true });
    }
    const exit = (code: number) => {
      log('info', 'stopped', { answered: this.#counts.answered, fellBack: this.#counts.fellBack });
      process.exit(code);
    };
    this.executor.close().then(
      () => exit(0),
      () => exit(1),
    );
  }
}

/** Listens on `socket`, created 0600 (no moment in which others may connect). */
function listen(server: Server, socket: string): Promise<void> {
  const umask = process.umask(0o177);
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => {
      server.off('error', reject);
      resolve();
    });
  }).finally(() => process.umask(umask));
}

export async function runDaemon(flags: DaemonFlags): Promise<number> {
  const fail = (message: string) => {
    log('error', message);
    return 1;
  };
  const idleMs = idleSeconds(flags.idleTimeout) * 1000;
  const cred = peerCredProblem();
  if (cred !== undefined) return fail(`cannot check who connects (${cred}): not starting`);
  const { prepareSocketPath } = await import('../../../server/unix-socket.js');
  const { dirname } = await import('node:path');
  const dir = daemonDirProblem(dirname(flags.socket));
  if (dir !== undefined) return fail(`--socket: ${dir}`);
  const parsed = parseFlags(flags.args, process.env, process.cwd());
  if (parsed instanceof UsageError) return fail(parsed.message);
  const identity = daemonIdentity(parsed, process.env, process.cwd());
  const own = absoluteFlags(parsed, process.cwd());
  let executor: Executor;
  let reloaded = () => {};
  try {
    executor = await createExecutor({
      ...cliExecutorOptions(own),
      prestartJsWorkers: true,
      watch: true,
      onWarning: (d) => log('warn', formatDiagnostic(d)),
      onReload: (r) => {
        if (r.ok) reloaded();
        log(r.ok ? 'info' : 'warn', r.ok ? 'configuration reloaded' : 'reload refused', {
          generation: r.generation,
          ...(r.ok ? {} : { reason: r.reason }),
        });
      },
    });
  } catch (err) {
    return fail(`the configuration does not load: ${(err as Error).message}`);
  }
  let path: string;
  try {
    path = await prepareSocketPath(flags.socket);
  } catch (err) {
    await executor.close();
    return fail(`--socket ${(err as Error).message}`);
  }
  const server = createServer();
  const daemon = new Daemon(
    executor,
    server,
    { flags: own, identity, args: flags.args },
    path,
    idleMs,
    flags.log,
    codeReads(),
  );
  server.on('connection', (socket) => serveConnection(socket, daemon));
  reloaded = () => daemon.writeManifest();
  try {
    await listen(server, path);
  } catch (err) {
    await executor.close();
    return fail(`--socket ${path}: cannot listen (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
  daemon.listening();
  process.on('SIGTERM', () => daemon.stop());
  process.on('SIGINT', () => daemon.stop());
  // A socket removed or replaced (another daemon took the name): this one can no longer be reached.
  setInterval(() => {
    if (!daemon.ownsSocket()) {
      log('info', 'the socket is no longer this daemon’s: exiting');
      daemon.stop();
    }
  }, 5_000).unref();
  log('info', 'listening', { socket: path, version: VERSION, args: flags.args, root: own.root });
  return new Promise<number>(() => {}); // runs until stop() exits the process
}
