// `once` state shared by every process that names the same directory (Claude Code starts the adapter
// once per event, and runs a `once` hook once per session): one small file per tenant and session
// under the user's state directory, `$XDG_STATE_HOME/hookwarden/once` (else
// `~/.local/state/hookwarden/once`).
//
// The folder is the user's own (created 0700; refused when it is a symlink, another user's, or
// writable by others); a file is named by the SHA-256 of the tenant and session (a session id never
// becomes a path), opened without following symlinks, must be a regular file of this user, at most
// MAX_BYTES, and is replaced atomically under a lock file (O_EXCL). Whatever goes wrong — the folder
// is refused, the lock is held too long, the file is corrupt or too large — the store answers "first
// time": the hook runs (a `once` hook runs again rather than being skipped).
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { OnceStore } from '../registry/registry.js';

/** Largest once file read; a larger one is not trusted (the hooks run). */
const ONCE_FILE_MAX_BYTES = 64 * 1024;
/** How long a process waits for another's lock, and when a lock is taken as left by a dead process. */
const LOCK_WAIT_MS = 500;
const LOCK_STALE_MS = 10_000;

/** The default directory: `$XDG_STATE_HOME/hookwarden/once`, else `~/.local/state/hookwarden/once`. */
export function defaultOnceDir(): string {
  const state = process.env.XDG_STATE_HOME;
  return join(
    state !== undefined && state !== '' ? state : join(homedir(), '.local', 'state'),
    'hookwarden',
    'once',
  );
}

const uid = () => process.getuid?.() ?? -1;

/** Whether `dir` is a real directory of this user that nobody else can write to (created when missing). */
function ownDirectory(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === uid() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

export class OnceFileStore implements OnceStore {
  readonly #dir: string;

  constructor(dir: string = defaultOnceDir()) {
    this.#dir = dir;
  }

  #file(session: string): string {
    return join(this.#dir, createHash('sha256').update(session).digest('hex'));
  }

  /** Runs `fn` under the session's lock; undefined when the lock could not be had. */
  #locked<T>(session: string, fn: (path: string) => T): T | undefined {
    if (!ownDirectory(this.#dir)) return undefined;
    const path = this.#file(session);
    const lock = `${path}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        closeSync(
          openSync(
            lock,
            constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW,
            0o600,
          ),
        );
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
        try {
          const st = lstatSync(lock);
          if (st.isFile() && Date.now() - st.mtimeMs > LOCK_STALE_MS) unlinkSync(lock);
        } catch {
          // gone meanwhile
        }
        if (Date.now() > deadline) return undefined;
        sleep(5);
      }
    }
    try {
      return fn(path);
    } finally {
      try {
        unlinkSync(lock);
      } catch {
        // removed by a process that took it as stale
      }
    }
  }

  /** The keys recorded in `path`; undefined when the file cannot be trusted. */
  #read(path: string): Set<string> | undefined {
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT' ? new Set() : undefined;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || st.uid !== uid() || st.size > ONCE_FILE_MAX_BYTES) return undefined;
      const buf = Buffer.alloc(st.size);
      let read = 0;
      while (read < st.size) {
        const n = readSync(fd, buf, read, st.size - read, read);
        if (n === 0) break;
        read += n;
      }
      const value: unknown = JSON.parse(buf.subarray(0, read).toString('utf8'));
      if (!Array.isArray(value) || !value.every((k) => typeof k === 'string')) return undefined;
      return new Set(value);
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  /** Replaces `path` with `keys` (a new file renamed over it); false when it could not. */
  #write(path: string, keys: Set<string>): boolean {
    const text = JSON.stringify([...keys]);
    if (Buffer.byteLength(text) > ONCE_FILE_MAX_BYTES) return false;
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const fd = openSync(
        temp,
        constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | constants.O_NOFOLLOW,
        0o600,
      );
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
      renameSync(temp, path);
      return true;
    } catch {
      try {
        unlinkSync(temp);
      } catch {}
      return false;
    }
  }

  firstTime(key: string, session: string): boolean {
    const seen = this.#locked(session, (path) => {
      const keys = this.#read(path);
      if (keys === undefined) return false;
      if (keys.has(key)) return true;
      keys.add(key);
      this.#write(path, keys);
      return false;
    });
    return seen !== true;
  }

  forget(key: string, session: string): void {
    this.#locked(session, (path) => {
      const keys = this.#read(path);
      if (keys?.delete(key) === true) this.#write(path, keys);
    });
  }

  /** Whether the store's directory is usable (for doctor and tests). */
  usable(): boolean {
    return ownDirectory(this.#dir) && statSync(this.#dir).isDirectory();
  }
}
