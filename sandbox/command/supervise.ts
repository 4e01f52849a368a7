// A started hook's lifetime, the same whichever launcher started it: stdout and stderr collected up
// to the cap (the excess is never buffered), and the whole process group killed (SIGTERM, SIGKILL
// after a grace) on timeout, on abort, on an output flood, if the spawn server dies under it, and
// when the hook exits, so no grandchild survives it. On timeout, abort and flood the run ends at
// once; the group's SIGKILL follows on its own timer.
import type { CommandOutcome, CommandTask, SandboxFacts } from '../../src/contract/command-task.js';
import type { ProcessGroups } from './kill-group.js';
import type { LaunchEvents, Launcher, LaunchHandle, LaunchSpec, StartFacts } from './launch.js';

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
    const stdout = new CappedText(task.maxOutputBytes);
    const stderr = new CappedText(task.maxOutputBytes);
    let pgid: number | undefined;
    let handle: LaunchHandle | undefined;
    let exit: { code: number | null; signal: string | null } | undefined;
    let openPipes = 2;
    let drained = false;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;
    /** Until the launcher said the hook started (fork/exec, or the spawn server's round trip). */
    let spawnMs: number | undefined;
    let sandbox: SandboxFacts | undefined;
    const elapsed = () => performance.now() - started;

    const finish = (outcome: CommandOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(drainTimer);
      signal?.removeEventListener('abort', onAbort);
      handle?.release();
      resolve(sandbox === undefined ? outcome : { ...outcome, sandbox });
    };
    const stop = (kind: Stop, message: string) => {
      if (settled) return;
      if (pgid !== undefined) groups.kill(pgid, task.killGraceMs);
      const base = { message, stderr: stderr.text(), durationMs: elapsed() };
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
      const { code, signal: sig } = exit;
      finish({
        kind: 'exited',
        exitCode: code,
        signal: sig,
        stdout: stdout.text(),
        stderr: stderr.text(),
        durationMs: elapsed(),
        ...(spawnMs === undefined ? {} : { spawnMs }),
      });
    };
    const onAbort = () => stop('aborted', 'the dispatch was aborted; process group killed');
    const deadline = setTimeout(
      () => stop('timeout', `no answer within ${task.deadlineMs} ms; process group killed`),
      task.deadlineMs,
    );

    const events: LaunchEvents = {
      started(pid, facts) {
        spawnMs = elapsed();
        sandbox = sandboxFacts(task, facts, knobs);
        pgid = pid;
        groups.track(pid);
        // Ended (timeout, abort) before the launcher said it had started: the group goes now.
        if (settled) groups.kill(pid, task.killGraceMs);
      },
      output(stream, chunk) {
        if (settled) return;
        if ((stream === 'stdout' ? stdout : stderr).push(chunk)) return;
        // Past the cap: the excess is never buffered, and the group is killed.
        stop('output_limit', `${stream} exceeded ${task.maxOutputBytes} bytes; process group killed`);
      },
      closed() {
        openPipes--;
        settle();
      },
      exited(code, sig) {
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
      },
      failed(message, kind = 'spawn_failed') {
        finish({ kind, message, stderr: '', durationMs: 0 });
      },
      lost(message, server) {
        if (settled) return;
        if (pgid !== undefined) groups.kill(pgid, task.killGraceMs);
        finish({ kind: 'spawn_server_lost', message, stderr: stderr.text(), durationMs: elapsed(), server });
      },
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    handle = launcher.start(spec, events);
    // A launcher that failed at once (or a run that already ended) has nothing more to relay.
    if (settled) handle.release();
  });
}
