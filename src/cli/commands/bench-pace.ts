// The pacing protocol of `hookwarden bench ab`: two `bench --paced` processes (one per side, each
// its own build and config) whose measured blocks alternate in one window. Before each block, a
// paced bench writes `ready` on fd 3 and waits for a `go` line on stdin; after its last block it
// prints its result on stdout and exits. The driver lets one side run a block, then the other, the
// order swapping every block, so that both meet the same machine, block for block.
import { type ChildProcess, spawn } from 'node:child_process';
import { fstatSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { UsageError } from '../usage-error.js';

/** Lines of a stream, one promise at a time; the stream's end (or an error) rejects the waiter. */
function lines(stream: NodeJS.ReadableStream, onEnd: () => Error) {
  const queue: string[] = [];
  const waiters: { resolve: (l: string) => void; reject: (e: Error) => void }[] = [];
  let ended: Error | undefined;
  const rl = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  rl.on('line', (line) => {
    const w = waiters.shift();
    if (w === undefined) queue.push(line);
    else w.resolve(line);
  });
  rl.on('close', () => {
    ended = onEnd();
    for (const w of waiters.splice(0)) w.reject(ended);
  });
  return {
    next: (): Promise<string> => {
      const line = queue.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (ended !== undefined) return Promise.reject(ended);
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
    close: () => rl.close(),
  };
}

/** The paced side of the protocol: runBench's `pace`, for `bench --paced`. */
export function pacedBench(): { pace: () => Promise<void>; close: () => void } {
  // fd 3 must be the driver's socket: without one, Node's own descriptors may have taken the number.
  let socket = false;
  try {
    socket = fstatSync(3).isSocket();
  } catch {}
  if (!socket)
    throw new UsageError('--paced is for `hookwarden bench ab`, which runs it with a pacing socket on fd 3');
  const input = lines(
    process.stdin,
    () => new UsageError('bench --paced: stdin closed before the next block (the driver went away)'),
  );
  return {
    pace: async () => {
      try {
        writeSync(3, 'ready\n');
      } catch (err) {
        throw new UsageError(
          `bench --paced: cannot write to the driver (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
        );
      }
      const line = await input.next();
      if (line.trim() !== 'go')
        throw new UsageError(`bench --paced: expected "go" on stdin, got ${JSON.stringify(line)}`);
    },
    close: () => input.close(),
  };
}

/** How long a side stopped by SIGTERM may take to stop its hooks before it is killed. */
const STOP_GRACE_MS = 10_000;

/** One side as the driver sees it: a running `bench --paced`. */
export class PacedSide {
  readonly label: string;
  readonly #child: ChildProcess;
  readonly #ready: ReturnType<typeof lines>;
  readonly #exit: Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** It said `ready` and waits for its next block. */
  waiting = false;

  constructor(label: string, command: string, args: readonly string[]) {
    this.label = label;
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe', 'pipe'] });
    this.#child = child;
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // A side that has ended reads no more lines: its stdin may be closed already.
    child.stdin!.on('error', () => {});
    this.#exit = new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    this.#ready = lines(child.stdio[3] as NodeJS.ReadableStream, () => new Error('ended'));
  }

  /** Waits for its next `ready` (true), or for its end (false: it printed its result). */
  async #next(): Promise<boolean> {
    try {
      const line = await this.#ready.next();
      if (line !== 'ready')
        throw new UsageError(`${this.label}: expected "ready" on fd 3, got ${JSON.stringify(line)}`);
      this.waiting = true;
      return true;
    } catch (err) {
      if (err instanceof UsageError) throw err;
      this.waiting = false;
      return false;
    }
  }

  /** Its cold pass and warm-up are done: it waits for the first block (false: it ended instead). */
  started(): Promise<boolean> {
    return this.#next();
  }

  /** Runs one block: `go`, then its next `ready` or its end. */
  async block(): Promise<void> {
    this.waiting = false;
    this.#child.stdin!.write('go\n');
    await this.#next();
  }

  /** Its result on stdout; a side that failed rejects with its own message. */
  async result(): Promise<string> {
    this.#child.stdin!.end();
    const { code, stdout, stderr } = await this.#exit;
    if (code === 0) return stdout;
    const message =
      stderr
        .trim()
        .split('\n')
        .at(-1)
        ?.replace(/^hookwarden: error: /, '') ?? '';
    if (/unknown option '--paced'/.test(stderr))
      throw new UsageError(
        `${this.label}: that hookwarden has no \`bench --paced\`; bench ab needs a build from this version on`,
      );
    throw new UsageError(`${this.label}: bench failed (exit ${code}): ${message || 'no message'}`);
  }

  /**
   * Ends it and waits until it has exited: its stdin closed and SIGTERM (it stops its hooks and
   * exits with no result); SIGKILL if it is still there after STOP_GRACE_MS.
   */
  async stop(): Promise<void> {
    const running = () => this.#child.exitCode === null && this.#child.signalCode === null;
    this.#child.stdin!.end();
    if (running()) this.#child.kill('SIGTERM');
    const grace = setTimeout(() => {
      if (running()) this.#child.kill('SIGKILL');
    }, STOP_GRACE_MS);
    await this.#exit.catch(() => {});
    clearTimeout(grace);
  }
}

/**
 * Alternates the sides' blocks until both have ended: one block each, the first side first on even
 * blocks and second on odd ones. Resolves with each side's stdout; a side that fails stops the
 * other, and its own message is the error.
 */
export async function alternate(sides: readonly [PacedSide, PacedSide]): Promise<[string, string]> {
  try {
    const started = await Promise.all(sides.map((s) => s.started()));
    const early = sides.find((_, i) => !started[i]);
    if (early !== undefined) {
      await early.result();
      throw new UsageError(`${early.label}: ended before its first measured block`);
    }
    for (let b = 0; sides.some((s) => s.waiting); b++) {
      const order = b % 2 === 0 ? sides : [sides[1], sides[0]];
      for (const s of order) {
        if (!s.waiting) continue;
        await s.block();
        // Ended while the other goes on: a failure is reported now, not after the other's run.
        if (!s.waiting && sides.some((o) => o.waiting)) await s.result();
      }
    }
    return await Promise.all([sides[0].result(), sides[1].result()]);
  } catch (err) {
    await Promise.all(sides.map((s) => s.stop()));
    throw err;
  }
}
