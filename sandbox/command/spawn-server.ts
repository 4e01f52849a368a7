// The spawn server, host side: one long-lived hw-spawn-server process per launcher (an executor's
// command lane), started on the first hook, that starts every command hook (the protocol is in
// sandbox/native/spawn-server.c). Starting a hook costs the main thread one message, not a fork of
// Node. The server runs with an empty environment in its own session, dies with this process
// (PR_SET_PDEATHSIG) and when its stdin closes (close()). If it dies under running hooks, each of
// them hears `lost` (the runner kills its process group and fails it with spawn_server_lost); the
// next hook starts a new server.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { LaunchEvents, Launcher, LaunchHandle, LaunchSpec, LostServer } from './launch.js';
import { decodeStarted, encodeRelease, encodeSpawn, FrameReader, PROTOCOL, REPLY } from './spawn-wire.js';

const SIGNAL_NAMES = new Map(Object.entries(constants.signals).map(([name, n]) => [n, name]));
/** How long close() waits for the server to exit after its stdin closed before SIGKILLing it. */
const CLOSE_GRACE_MS = 5000;
/** Of the server's stderr, what is kept for the message when it dies. */
const STDERR_KEEP = 2048;
/**
 * A server that has not answered a SPAWN for this long is stuck (its clone waits for a child that
 * was stopped before its exec) and is replaced: SIGKILLed, its hooks lost, a new one started.
 */
export const STUCK_AFTER_MS = 5000;

/** The events of a hook released before it started: SIGKILL its group once its pid is known. */
function orphan(release: () => void): LaunchEvents {
  const nothing = () => {};
  return {
    started(pid) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {}
      release();
    },
    output: nothing,
    closed: nothing,
    exited: nothing,
    failed: nothing,
    lost: nothing,
  };
}

class ServerProcess {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #hooks = new Map<number, LaunchEvents>();
  readonly #reader = new FrameReader();
  readonly #exited: Promise<void>;
  readonly #onGone: () => void;
  #nextId = 1;
  /** SPAWNs not answered yet (STARTED or FAILED): id → when sent. */
  readonly #unanswered = new Map<number, number>();
  #watchdog: NodeJS.Timeout | undefined;
  #stderr = '';
  #gone = false;
  #closing = false;
  /** What the server's READY said of containment on this host. */
  containment: { available: boolean; reason: string } | undefined;

  readonly #onReady: (c: { available: boolean; reason: string }) => void;

  constructor(
    path: string,
    onGone: () => void,
    onReady: (containment: { available: boolean; reason: string }) => void,
  ) {
    this.#onGone = onGone;
    this.#onReady = onReady;
    this.#child = spawn(path, [String(process.pid)], {
      env: {},
      cwd: '/',
      // Its own session: a terminal's ^C goes to hookwarden, which closes executors in order.
      detached: true,
      stdio: 'pipe',
    }) as ChildProcessWithoutNullStreams;
    // The server never keeps the host alive by itself; a running hook's deadline timer does.
    this.#child.unref();
    for (const s of [this.#child.stdin, this.#child.stdout, this.#child.stderr]) {
      (s as unknown as { unref?: () => void }).unref?.();
    }
    this.#child.stdout.on('data', (chunk: Buffer) =>
      this.#reader.push(chunk, (t, id, p) => this.#onFrame(t, id, p)),
    );
    this.#child.stderr.setEncoding('utf8');
    this.#child.stderr.on('data', (text: string) => {
      this.#stderr = (this.#stderr + text).slice(-STDERR_KEEP);
    });
    this.#child.stdin.on('error', () => {}); // EPIPE once it died: 'close' says how
    this.#exited = new Promise((resolve) => {
      this.#child.on('error', (err) => {
        this.#lose(`cannot start the spawn server ${path}: ${err.message}`, null, null);
        resolve();
      });
      this.#child.on('close', (code, signal) => {
        this.#lose(this.#describeEnd(code, signal), code, signal);
        resolve();
      });
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  start(spec: LaunchSpec, events: LaunchEvents): LaunchHandle {
    const id = this.#nextId;
    this.#nextId = this.#nextId >= 0xffff_fffe ? 1 : this.#nextId + 1;
    this.#hooks.set(id, events);
    this.#child.stdin.write(encodeSpawn(id, spec));
    this.#unanswered.set(id, performance.now());
    this.#watch();
    return {
      release: () => {
        if (!this.#hooks.has(id) || this.#gone) return;
        if (this.#unanswered.has(id)) {
          // Released before the server said it started (a timeout or abort in that moment): nobody
          // would kill it, so it is killed the moment its pid is known.
          this.#hooks.set(
            id,
            orphan(() => {
              this.#hooks.delete(id);
              if (!this.#gone) this.#child.stdin.write(encodeRelease(id));
            }),
          );
          return;
        }
        this.#hooks.delete(id);
        this.#child.stdin.write(encodeRelease(id));
      },
    };
  }

  /** Arms the watchdog for the oldest unanswered SPAWN. */
  #watch(): void {
    if (this.#watchdog !== undefined || this.#gone) return;
    const oldest = this.#unanswered.values().next();
    if (oldest.done === true) return;
    const wait = Math.max(0, oldest.value + STUCK_AFTER_MS - performance.now());
    this.#watchdog = setTimeout(() => {
      this.#watchdog = undefined;
      const first = this.#unanswered.values().next();
      if (first.done !== true && performance.now() - first.value >= STUCK_AFTER_MS) {
        this.#stderr = `it started no hook for ${STUCK_AFTER_MS} ms: stuck`;
        this.#child.kill('SIGKILL');
      } else this.#watch();
    }, wait);
    this.#watchdog.unref();
  }

  #answered(id: number): void {
    this.#unanswered.delete(id);
    if (this.#unanswered.size === 0) {
      clearTimeout(this.#watchdog);
      this.#watchdog = undefined;
    }
  }

  /** Closes its stdin (it SIGKILLs what it still runs, then exits) and waits for it to exit. */
  async close(): Promise<void> {
    this.#closing = true;
    this.#child.stdin.end();
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), CLOSE_GRACE_MS);
    await this.#exited;
    clearTimeout(timer);
  }

  #onFrame(type: number, id: number, payload: Buffer): void {
    if (type === REPLY.ready) {
      const version = payload.readUInt32LE(0);
      if (version !== PROTOCOL) {
        this.#child.kill('SIGKILL');
        this.#stderr = `it speaks protocol ${version}, this hookwarden ${PROTOCOL}: rebuild (npm run build)`;
        return;
      }
      // Then namespace mode (1/0), the cap's mechanisms and Landlock's ABI; the two reasons at the end.
      const whyLength = payload.readUInt32LE(28);
      this.containment = {
        available: payload.readUInt32LE(8) === 1,
        reason: payload.subarray(32, 32 + whyLength).toString('utf8'),
      };
      this.#onReady(this.containment);
      return;
    }
    if (type === REPLY.started || type === REPLY.failed) this.#answered(id);
    const events = this.#hooks.get(id);
    if (events === undefined) return; // released
    if (type === REPLY.started) {
      const { pid, facts } = decodeStarted(payload);
      events.started(pid, facts);
    } else if (type === REPLY.stdout || type === REPLY.stderr)
      events.output(type === REPLY.stdout ? 'stdout' : 'stderr', payload);
    else if (type === REPLY.closed) events.closed(payload[0] === 1 ? 'stdout' : 'stderr');
    else if (type === REPLY.exited) {
      const code = payload.readInt32LE(0);
      const signal = payload.readInt32LE(4);
      events.exited(
        code < 0 ? null : code,
        signal === 0 ? null : (SIGNAL_NAMES.get(signal) ?? `signal ${signal}`),
      );
    } else if (type === REPLY.failed) {
      this.#hooks.delete(id);
      events.failed(
        payload.subarray(1).toString('utf8'),
        payload[0] === 1 ? 'isolation_unavailable' : 'spawn_failed',
      );
    }
  }

  #describeEnd(code: number | null, signal: string | null): string {
    const pid = this.#child.pid;
    const how = this.#closing
      ? 'was closed'
      : signal !== null
        ? `was killed by ${signal}`
        : `exited with code ${code}`;
    const why = this.#stderr.trim().split('\n').pop();
    return `the spawn server (pid ${pid}) ${how}${why ? ` (${why})` : ''}; the hook's process group was killed, and the next hook starts a new server`;
  }

  #lose(message: string, exitCode: number | null, signal: string | null): void {
    if (this.#gone) return;
    this.#gone = true;
    clearTimeout(this.#watchdog);
    this.#onGone();
    const server: LostServer = { pid: this.#child.pid, exitCode, signal };
    const hooks = [...this.#hooks.values()];
    this.#hooks.clear();
    for (const events of hooks) events.lost(message, server);
  }
}

/** Starts hooks through a hw-spawn-server process, started on the first hook and again after a loss. */
export class SpawnServer implements Launcher {
  readonly kind = 'spawn-server';
  readonly path: string;
  #server: ServerProcess | undefined;
  /** The last server's READY: whether this host allows containment. */
  containment: { readonly available: boolean; readonly reason: string } | undefined;

  constructor(path: string) {
    this.path = path;
  }

  /** The running server's pid; undefined before the first hook and after a loss. */
  get pid(): number | undefined {
    return this.#server?.pid;
  }

  start(spec: LaunchSpec, events: LaunchEvents): LaunchHandle {
    if (this.#server === undefined) {
      const server = new ServerProcess(
        this.path,
        () => {
          if (this.#server === server) this.#server = undefined;
        },
        (c) => {
          this.containment = c;
        },
      );
      this.#server = server;
    }
    return this.#server.start(spec, events);
  }

  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    if (server !== undefined) await server.close();
  }
}
