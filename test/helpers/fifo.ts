// FIFOs that let a test and a hook wait on each other (events, not sleeps). A hook announces itself
// by writing a line to a "started" FIFO and blocks reading a line from a "release" FIFO. The test
// holds both open read-write and non-blocking: its open never waits for the hook, the reader never
// sees an end of file between hooks, and a line written for a hook waits in the pipe until one reads.
import { spawnSync } from 'node:child_process';
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function mkfifo(dir: string, name: string): string {
  const path = join(dir, name);
  const r = spawnSync('mkfifo', [path]);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
  return path;
}

const open = new Set<{ close(): void }>();
afterAll(() => {
  for (const f of [...open]) f.close();
});

/** Lines written by hooks to a FIFO. */
export class FifoLines {
  readonly #socket: Socket;
  #buffer = '';
  #waiters: ((line: string) => void)[] = [];

  constructor(readonly path: string) {
    const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
    this.#socket = new Socket({ fd, readable: true, writable: false });
    this.#socket.on('data', (d) => {
      this.#buffer += String(d);
      this.#pump();
    });
    open.add(this);
  }

  #pump(): void {
    let nl = this.#buffer.indexOf('\n');
    while (nl >= 0 && this.#waiters.length > 0) {
      const line = this.#buffer.slice(0, nl);
      this.#buffer = this.#buffer.slice(nl + 1);
      this.#waiters.shift()!(line);
      nl = this.#buffer.indexOf('\n');
    }
  }

  /** The next line a hook writes. */
  next(): Promise<string> {
    return new Promise((resolve) => {
      this.#waiters.push(resolve);
      this.#pump();
    });
  }

  close(): void {
    open.delete(this);
    this.#socket.destroy();
  }
}

/** Lines for hooks to read from a FIFO (each `read` takes one line). */
export class FifoFeed {
  readonly #fd: number;
  #closed = false;

  constructor(readonly path: string) {
    this.#fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
    open.add(this);
  }

  send(line = 'go'): void {
    writeSync(this.#fd, `${line}\n`);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    open.delete(this);
    closeSync(this.#fd);
  }
}

/**
 * A command hook that writes `started` to `started`, waits for a line on `release`, then answers
 * `output` (a HookOutput).
 */
export function waitingHook(started: string, release: string, output: object = { decision: 'allow' }) {
  return {
    type: 'command',
    command: `echo started > '${started}'; read line < '${release}'; printf '%s' '${JSON.stringify(output)}'`,
  };
}

/**
 * A hook that waits, with both ends held by the test: `lines.next()` resolves when it started,
 * `feed.send()` lets it answer. `hook` is its spec (add name, async… as needed).
 */
export function waitingPair(dir: string, output?: object) {
  const started = mkfifo(dir, 'started');
  const release = mkfifo(dir, 'release');
  return {
    hook: waitingHook(started, release, output),
    lines: new FifoLines(started),
    feed: new FifoFeed(release),
  };
}
