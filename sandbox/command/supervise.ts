// A started hook's lifetime, the same whichever launcher started it: stdout and stderr collected up
// to the cap (the excess is never buffered), and the whole process group killed (SIGTERM, SIGKILL
// after a grace) on timeout, on abort, on an output flood, if the spawn server dies under it, and
// when the hook exits, so no grandchild survives it. On timeout, abort and flood the run ends at
// once; the group's SIGKILL follows on its own timer.
import type { CommandOutcome, CommandTask, SandboxFacts } from '../../src/contract/command-task.js';
import type { ProcessGroups } from './kill-group.js';
import type { LaunchEvents, Launcher, LaunchHandle, LaunchSpec, LostServer, StartFacts } from './launch.js';

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

/** What the hook got, from what its launcher said when it started, and the knobs in force. */
function sandboxFacts(
  task: CommandTask,
  facts: StartFacts,
  knobs: readonly string[] | undefined,
): SandboxFacts {
  const containment =
    task.isolation === 'namespace' ? 'namespace' : facts.contained ? 'contained' : 'uncontained';
  return {
    containment,
    ...(containment === 'uncontained' && facts.uncontained !== undefined
      ? { uncontainedReason: facts.uncontained }
      : {}),
    ...(facts.clamped === undefined ? {} : { clampedLimits: facts.clamped }),
    processCap: facts.processCap ?? { mechanism: 'none' },
    ...(facts.landlock === undefined ? {} : { landlock: facts.landlock }),
    ...(knobs === undefined || knobs.length === 0 ? {} : { knobs }),
  };
}

type Exit = { code: number | null; signal: string | null };

/** One hook run's state: its capped output, its process group, and how (and whether) it ended. */
class Supervision {
  readonly #stdout: CappedText;
  readonly #stderr: CappedText;
  #pgid: number | undefined;
  #handle: LaunchHandle | undefined;
  #exit: Exit | undefined;
  #openPipes = 2;
  #drained = false;
  #settled = false;
  #drainTimer: NodeJS.Timeout | undefined;
  /** Until the launcher said the hook started (fork/exec, or the spawn server's round trip). */
  #spawnMs: number | undefined;
  #sandbox: SandboxFacts | undefined;
  readonly #deadline: NodeJS.Timeout;
  readonly #onAbort = () => this.#stop('aborted', 'the dispatch was aborted; process group killed');

  constructor(
    private readonly task: CommandTask,
    private readonly groups: ProcessGroups,
    private readonly signal: AbortSignal | undefined,
    private readonly knobs: readonly string[] | undefined,
    private readonly started: number,
    private readonly resolve: (outcome: CommandOutcome) => void,
  ) {
    this.#stdout = new CappedText(task.maxOutputBytes);
    this.#stderr = new CappedText(task.maxOutputBytes);
    this.#deadline = setTimeout(
      () => this.#stop('timeout', `no answer within ${task.deadlineMs} ms; process group killed`),
      task.deadlineMs,
    );
  }

  /** Listens for the abort and starts the hook. */
  begin(launcher: Launcher, spec: LaunchSpec): void {
    this.signal?.addEventListener('abort', this.#onAbort, { once: true });
    this.#handle = launcher.start(spec, this.#events());
    // A launcher that failed at once (or a run that already ended) has nothing more to relay.
    if (this.#settled) this.#handle.release();
  }

  #elapsed(): number {
    return performance.now() - this.started;
  }

  #finish(outcome: CommandOutcome): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#deadline);
    clearTimeout(this.#drainTimer);
    this.signal?.removeEventListener('abort', this.#onAbort);
    this.#handle?.release();
    this.resolve(this.#sandbox === undefined ? outcome : { ...outcome, sandbox: this.#sandbox });
  }

  #stop(kind: Stop, message: string): void {
    if (this.#settled) return;
    if (this.#pgid !== undefined) this.groups.kill(this.#pgid, this.task.killGraceMs);
    const base = { message, stderr: this.#stderr.text(), durationMs: this.#elapsed() };
    this.#finish(
      kind === 'output_limit' ? { kind, ...base, limitBytes: this.task.maxOutputBytes } : { kind, ...base },
    );
  }

  #settle(): void {
    if (this.#exit === undefined || (this.#openPipes > 0 && !this.#drained)) return;
    const stdout = this.#stdout;
    const stderr = this.#stderr;
    if (stdout.overflowed || stderr.overflowed) {
      this.#stop(
        'output_limit',
        `${stdout.overflowed ? 'stdout' : 'stderr'} exceeded ${this.task.maxOutputBytes} bytes`,
      );
      return;
    }
    const { code, signal: sig } = this.#exit;
    const spawnMs = this.#spawnMs;
    this.#finish({
      kind: 'exited',
      exitCode: code,
      signal: sig,
      stdout: stdout.text(),
      stderr: stderr.text(),
      durationMs: this.#elapsed(),
      ...(spawnMs === undefined ? {} : { spawnMs }),
    });
  }

  #events(): LaunchEvents {
    return {
      started: (pid, facts) => this.#started(pid, facts),
      output: (stream, chunk) => this.#output(stream, chunk),
      closed: () => {
        this.#openPipes--;
        this.#settle();
      },
      exited: (code, sig) => this.#exited(code, sig),
      failed: (message, kind = 'spawn_failed') => {
        this.#finish({ kind, message, stderr: '', durationMs: 0 });
      },
      lost: (message, server) => this.#lost(message, server),
    };
  }

  #started(pid: number, facts: StartFacts): void {
    this.#spawnMs = this.#elapsed();
    this.#sandbox = sandboxFacts(this.task, facts, this.knobs);
    this.#pgid = pid;
    this.groups.track(pid);
    // Ended (timeout, abort) before the launcher said it had started: the group goes now.
    if (this.#settled) this.groups.kill(pid, this.task.killGraceMs);
  }

  #output(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    if (this.#settled) return;
    if ((stream === 'stdout' ? this.#stdout : this.#stderr).push(chunk)) return;
    // Past the cap: the excess is never buffered, and the group is killed.
    this.#stop('output_limit', `${stream} exceeded ${this.task.maxOutputBytes} bytes; process group killed`);
  }

  #exited(code: number | null, sig: string | null): void {
    this.#exit = { code, signal: sig };
    if (this.#settled) return; // ended by timeout/abort/flood: the group is already being killed
    // The hook is done: whatever it left behind in its group goes too.
    const leftovers = this.#pgid !== undefined && this.groups.kill(this.#pgid, this.task.killGraceMs);
    if (this.#openPipes > 0) {
      // Pipes still open: leftovers (or a process that escaped the group) hold them.
      this.#drainTimer = setTimeout(
        () => {
          this.#drained = true;
          this.#settle();
        },
        (leftovers ? this.task.killGraceMs : 0) + PIPE_DRAIN_MS,
      );
    }
    this.#settle();
  }

  #lost(message: string, server: LostServer): void {
    if (this.#settled) return;
    if (this.#pgid !== undefined) this.groups.kill(this.#pgid, this.task.killGraceMs);
    this.#finish({
      kind: 'spawn_server_lost',
      message,
      stderr: this.#stderr.text(),
      durationMs: this.#elapsed(),
      server,
    });
  }
}

export function supervise(
  task: CommandTask,
  spec: LaunchSpec,
  groups: ProcessGroups,
  signal: AbortSignal | undefined,
  launcher: Launcher,
  knobs?: readonly string[],
): Promise<CommandOutcome> {
  const started = performance.now();
  return new Promise<CommandOutcome>((resolve) => {
    new Supervision(task, groups, signal, knobs, started, resolve).begin(launcher, spec);
  });
}
