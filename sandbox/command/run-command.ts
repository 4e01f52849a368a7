// The subprocess runner (DESIGN §5): spawns a command hook in its own process group, writes the
// HookInput to stdin without ever blocking on it, caps stdout/stderr without buffering the excess,
// and kills the whole group (SIGTERM, SIGKILL after a grace) on timeout, on abort, on an output flood
// and when the hook exits, so no grandchild survives it. On timeout, abort and flood the run ends at
// once; the group's SIGKILL follows on its own timer. Spawned from the main thread: PDEATHSIG-style
// cleanup is per thread, and the measurements favour it (bench/README.md). The child is started with
// an empty environment: only the hook itself, past the wrapper (and bwrap), gets its variables.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { chownSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { CommandOutcome, CommandTask } from '../../src/contract/command-task.js';
import { buildHookEnv } from './env.js';
import type { ProcessGroups } from './kill-group.js';
import { namespaceLaunch, namespaceSupport } from './namespace-profile.js';
import { findWrapper, type Launch, processLaunch, type Wrapper } from './process-profile.js';

/** The host's unprivileged `nobody` user and group. */
const NOBODY = 65534;

/** How to start the task in its isolation, or why that isolation is not available (never weaker). */
function commandLaunch(
  task: CommandTask,
  wrapper: Wrapper,
  env: Readonly<Record<string, string>>,
): { launch: Launch } | { unavailable: string } {
  if (task.runAs === 'nobody' && process.getuid?.() !== 0) {
    return {
      unavailable: 'runAs "nobody" needs hookwarden to run as root (it switches the hook to uid 65534)',
    };
  }
  if (task.isolation === 'process') return { launch: processLaunch(task, wrapper, env) };
  const ns = namespaceSupport();
  if (!ns.ok || ns.bwrap === undefined) {
    return {
      unavailable: `isolation "namespace" is not available: ${ns.reason}. Fix: ${ns.hint}. The hook was not run.`,
    };
  }
  return { launch: namespaceLaunch(task, wrapper, ns.bwrap, env) };
}

/** After the hook exits, how long to wait for pipes still held by escaped processes. */
const PIPE_DRAIN_MS = 100;

class CappedText {
  readonly #chunks: Buffer[] = [];
  #size = 0;
  overflowed = false;
  constructor(readonly cap: number) {}
  /** Keeps at most `cap` bytes; returns false once the cap is exceeded. */
  push(chunk: Buffer): boolean {
    if (this.overflowed) return false;
    const room = this.cap - this.#size;
    if (chunk.length > room) {
      if (room > 0) this.#chunks.push(chunk.subarray(0, room));
      this.#size = this.cap;
      this.overflowed = true;
      return false;
    }
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    return true;
  }
  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}

type Stop = 'timeout' | 'aborted' | 'output_limit';

export function runCommand(
  task: CommandTask,
  groups: ProcessGroups,
  signal?: AbortSignal,
  wrapper: Wrapper | null = findWrapper(),
): Promise<CommandOutcome> {
  if (wrapper === null) {
    const message =
      'neither the hw-exec helper (npm run build) nor prlimit(1) (apt-get install util-linux) is available to apply rlimits';
    return Promise.resolve({ kind: 'spawn_failed', message, stderr: '', durationMs: 0 });
  }
  if (signal?.aborted)
    return Promise.resolve({ kind: 'aborted', message: 'aborted before start', stderr: '', durationMs: 0 });
  const env = buildHookEnv(task);
  if (!env.ok)
    return Promise.resolve({ kind: 'spawn_failed', message: env.message, stderr: '', durationMs: 0 });
  const how = commandLaunch(task, wrapper, env.env);
  if ('unavailable' in how) {
    return Promise.resolve({
      kind: 'isolation_unavailable',
      message: how.unavailable,
      stderr: '',
      durationMs: 0,
    });
  }
  const [file, ...args] = how.launch.argv;
  const fd3 = how.launch.fd3;
  const runAs = task.runAs === 'nobody' ? { uid: NOBODY, gid: NOBODY } : {};
  if (task.runAs === 'nobody') {
    try {
      chownSync(task.scratchDir, NOBODY, NOBODY);
    } catch (err) {
      const message = `cannot hand the scratch directory to nobody: ${(err as Error).message}`;
      return Promise.resolve({ kind: 'isolation_unavailable', message, stderr: '', durationMs: 0 });
    }
  }
  const started = performance.now();
  return new Promise<CommandOutcome>((resolve) => {
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(file!, args, {
        cwd: task.cwd,
        // The wrapper, prlimit and bwrap run before any sandbox exists: nothing of the hook's reaches them.
        env: {},
        detached: true,
        stdio: fd3 === undefined ? 'pipe' : ['pipe', 'pipe', 'pipe', 'pipe'],
        ...runAs,
      }) as ChildProcessWithoutNullStreams;
    } catch (err) {
      // Arguments Node refuses before any process exists (a NUL byte in the command or argv).
      const message = `cannot start the hook: ${(err as Error).message}`;
      resolve({ kind: 'spawn_failed', message, stderr: '', durationMs: 0 });
      return;
    }
    const side = fd3 === undefined ? undefined : (child.stdio[3] as Writable);
    const pgid = child.pid;
    if (pgid !== undefined) groups.track(pgid);
    const stdout = new CappedText(task.maxOutputBytes);
    const stderr = new CappedText(task.maxOutputBytes);
    let exit: { code: number | null; signal: string | null } | undefined;
    let openPipes = 2;
    let drained = false;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;

    const finish = (outcome: CommandOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(drainTimer);
      signal?.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      child.stdin.destroy();
      side?.destroy();
      resolve(outcome);
    };
    const stop = (kind: Stop, message: string) => {
      if (settled) return;
      if (pgid !== undefined) groups.kill(pgid, task.killGraceMs);
      const base = { message, stderr: stderr.text(), durationMs: performance.now() - started };
      finish(
        kind === 'output_limit' ? { kind, ...base, limitBytes: task.maxOutputBytes } : { kind, ...base },
      );
    };
    const settle = () => {
      if (exit === undefined || (openPipes > 0 && !drained)) return;
      if (stdout.overflowed || stderr.overflowed) {
        return stop(
          'output_limit',
          `${stdout.overflowed ? 'stdout' : 'stderr'} exceeded ${task.maxOutputBytes} bytes`,
        );
      }
      finish({
        kind: 'exited',
        exitCode: exit.code,
        signal: exit.signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        durationMs: performance.now() - started,
      });
    };
    const onAbort = () => stop('aborted', 'the dispatch was aborted; process group killed');
    const deadline = setTimeout(
      () => stop('timeout', `no answer within ${task.deadlineMs} ms; process group killed`),
      task.deadlineMs,
    );

    child.on('error', (err) => {
      // Only a failed spawn leaves no pid; later errors (e.g. a failed kill) change nothing here.
      if (pgid === undefined) {
        finish({
          kind: 'spawn_failed',
          message: `cannot start the hook: ${err.message}`,
          stderr: '',
          durationMs: 0,
        });
      }
    });
    const collect = (buf: CappedText, name: 'stdout' | 'stderr') => (chunk: Buffer) => {
      if (buf.push(chunk)) return;
      // Past the cap: the excess is never buffered, and the group is killed.
      stop('output_limit', `${name} exceeded ${task.maxOutputBytes} bytes; process group killed`);
    };
    child.stdout.on('data', collect(stdout, 'stdout'));
    child.stderr.on('data', collect(stderr, 'stderr'));
    const onPipeClosed = () => {
      openPipes--;
      settle();
    };
    child.stdout.on('close', onPipeClosed);
    child.stderr.on('close', onPipeClosed);
    child.on('exit', (code, sig) => {
      exit = { code, signal: sig };
      if (settled) return; // ended by timeout/abort/flood: the group is already being killed
      // The hook is done: whatever it left behind in its group goes too.
      const leftovers = pgid !== undefined && groups.kill(pgid, task.killGraceMs);
      if (openPipes > 0) {
        // Pipes still open: leftovers (or a process that escaped the group) hold them.
        drainTimer = setTimeout(
          () => {
            drained = true;
            settle();
          },
          (leftovers ? task.killGraceMs : 0) + PIPE_DRAIN_MS,
        );
      }
      settle();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    // A hook may never read stdin: the write is asynchronous and EPIPE is ignored.
    child.stdin.on('error', () => {});
    child.stdin.end(task.stdin);
    // The environment (or bwrap's --args) on fd 3: read to EOF and closed before the hook starts. A
    // wrapper that fails first leaves it unread (EPIPE, ignored); its exit status says why.
    side?.on('error', () => {});
    side?.end(fd3);
  });
}
