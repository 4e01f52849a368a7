// The running daemon as its connections see it (connection.ts's ConnectionHost): whether it answers
// a caller (identity, in-process-only hooks), its manifest (what its load read, and its own code)
// and the file clients read it from, the answer itself, reloads on stale digests, status, the idle
// exit and the stop. daemon.ts starts it.
import { lstatSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { formatDiagnostic } from '../../../config/diagnostics.js';
import type { LoadRead } from '../../../config/read-log.js';
import { VERSION } from '../../../contract/version.js';
import type { Executor } from '../../../executor/executor.js';
import { internalsOf } from '../../../executor/internals.js';
import { isAsyncHook } from '../../../registry/hook-definition.js';
import { parseFlags, unforwardable } from '../../adapter/run-adapter.js';
import type { AdapterSpec } from '../../adapter/spec.js';
import { UsageError } from '../../usage-error.js';
import type { AdapterFlags } from '../flags.js';
import { readScannable } from '../quick-scan.js';
import { answerCall } from './answer-call.js';
import { AnswerTimings } from './answer-timings.js';
import type { ConnectionHost } from './connection.js';
import { absoluteFlags, daemonIdentity } from './identity.js';
import { manifest, type Request } from './wire.js';

/** At most one reload a second is started for a caller's stale digests (the watcher reloads too). */
const STALE_RELOAD_MS = 1000;

export function log(
  level: 'info' | 'warn' | 'error',
  msg: string,
  fields: Record<string, unknown> = {},
): void {
  process.stderr.write(
    `${JSON.stringify({ time: new Date().toISOString(), level, pid: process.pid, msg, ...fields })}\n`,
  );
}

/** Why a configuration is answered in process: hooks whose meaning depends on the process that runs them. */
function inProcessOnly(executor: Executor): string | undefined {
  const hooks = internalsOf(executor).hooks();
  if (hooks.some((h) => h.once))
    return 'the configuration has `once` hooks: in process each call is a new process, and so through the daemon';
  if (hooks.some((h) => isAsyncHook(h)))
    return 'the configuration has async hooks: the adapter waits for them in its own process';
  return undefined;
}

export class Daemon implements ConnectionHost {
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
  /** Config files as read for the routing check and the no-hook scan, for the manifest `#scannedFor`. */
  readonly #scanned = new Map<string, Record<string, unknown> | undefined>();
  #scannedFor: readonly LoadRead[] | undefined;

  constructor(
    readonly executor: Executor,
    readonly server: Server,
    readonly own: {
      readonly spec: AdapterSpec;
      readonly flags: AdapterFlags;
      readonly identity: string;
      /** The adapter's command and arguments: `codex --config …`. */
      readonly args: readonly string[];
    },
    readonly socket: string,
    readonly idleMs: number,
    readonly logFile: string | undefined,
    readonly code: readonly LoadRead[],
  ) {}

  accept(request: Request): AdapterFlags | string {
    if (this.#stopping) return 'the daemon is stopping';
    const [command, ...args] = request.args;
    if (command !== this.own.spec.command)
      return `this daemon answers \`hookwarden ${this.own.spec.command}\`, not ${JSON.stringify(command ?? '')}`;
    const parsed = parseFlags(this.own.spec, args, request.env, request.cwd);
    if (parsed instanceof UsageError) return `the adapter's flags: ${parsed.message}`;
    const own =
      unforwardable(parsed) ?? (parsed.socket === undefined ? undefined : '--socket given to the adapter');
    if (own !== undefined) return `${own}: the adapter runs in process`;
    if (daemonIdentity(command, parsed, request.env, request.cwd) !== this.own.identity)
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
        spec: this.own.spec,
        flags,
        input: request.input,
        env: request.env,
        deadlineMs: request.deadlineMs,
        read: this.#scan,
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

  /**
   * readScannable, once per file and load: a call is answered only when the caller's digests of
   * every file the load read match the load's, so a file it lists reads the same until the next
   * load. Files it does not list are read each time.
   */
  readonly #scan = (path: string): Record<string, unknown> | undefined => {
    // A new list after every load (its digests are the ones callers are checked against).
    const { reads } = this.manifest();
    if (this.#scannedFor !== reads) {
      this.#scanned.clear();
      this.#scannedFor = reads;
    }
    if (this.#scanned.has(path)) return this.#scanned.get(path);
    const file = readScannable(path);
    if (reads.some((r) => r.path === path && (r.kind === 'file' || r.kind === 'file-nofollow')))
      this.#scanned.set(path, file);
    return file;
  };

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
