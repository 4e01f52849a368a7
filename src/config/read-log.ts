// What a configuration was loaded from, to the byte: every file whose content a load read (config
// files, JS hook sources, key files, every file of a pack), every directory whose entries it listed
// (a pack's), and every path whose existence changed its meaning (a plugin manifest). A process that
// answers for a configuration loaded earlier (a daemon) is trusted only while each of these still
// digests to what the load saw: the client digests them itself (digestNow here, or
// hookwarden-client's C twin) and the daemon compares (readsMatch). An edit is therefore seen at the
// very next call, however the file watcher is doing.
//
// The reads happen in leaf functions deep in config/ and packs/, so a load is recorded through an
// AsyncLocalStorage scope rather than a recorder threaded through every signature; outside a
// recording (install, `pack lock`) the record calls do nothing. Dependency-free (node: modules).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import {
  type BigIntStats,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
} from 'node:fs';

/**
 * How the load read the path: `file` (through symlinks), `file-nofollow` (a pack's files: a symlink
 * is refused), `dir` (the names a directory holds; a symlink is refused, as a pack's walk refuses
 * one), `exists` (whether it is a regular file, through symlinks) or `stat` (a file's inode, size,
 * mtime and ctime: a file too large to digest on every call, which any write changes, such as the
 * daemon's own code).
 */
export type ReadKind = 'file' | 'file-nofollow' | 'dir' | 'exists' | 'stat';

/** The digest of a path not there (ENOENT). */
export const ABSENT = 'absent';
/** The digest of a path there but not readable as its kind (not a regular file, EACCES, ELOOP…). */
export const UNREADABLE = 'unreadable';
/** The digest of an `exists` read that found a regular file. */
export const PRESENT = 'present';

export interface LoadRead {
  readonly kind: ReadKind;
  /** Absolute. */
  readonly path: string;
  /** Lowercase hex SHA-256 (file: its bytes; dir: its names, see dirDigest), or ABSENT/UNREADABLE/PRESENT. */
  readonly digest: string;
}

const scope = new AsyncLocalStorage<LoadRead[]>();

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** What an errno means for a digest. */
const errorDigest = (code: string | undefined) => (code === 'ENOENT' ? ABSENT : UNREADABLE);

/** The digest of a directory's entries: SHA-256 over each UTF-8 name followed by a NUL, in byte order. */
export function dirDigest(names: readonly string[]): string {
  const bytes = names.map((n) => Buffer.from(n, 'utf8')).sort(Buffer.compare);
  const hash = createHash('sha256');
  for (const b of bytes) hash.update(b).update('\0');
  return hash.digest('hex');
}

function record(read: LoadRead): void {
  const log = scope.getStore();
  if (log === undefined) return;
  if (!log.some((r) => r.kind === read.kind && r.path === read.path && r.digest === read.digest))
    log.push(read);
}

/** Records the outcome of reading a file: its bytes, or the error code of the failed read. */
export function recordFileRead(
  path: string,
  outcome: Buffer | string | { code?: string | undefined },
  nofollow = false,
): void {
  const kind = nofollow ? 'file-nofollow' : 'file';
  const digest =
    Buffer.isBuffer(outcome) || typeof outcome === 'string'
      ? sha256(Buffer.isBuffer(outcome) ? outcome : Buffer.from(outcome, 'utf8'))
      : errorDigest(outcome.code);
  record({ kind, path, digest });
}

/** Records a directory listing, or the error code of the failed listing (`ENOTDIR` for a symlink). */
export function recordDirRead(
  path: string,
  outcome: readonly string[] | { code?: string | undefined },
): void {
  const digest = Array.isArray(outcome)
    ? dirDigest(outcome as readonly string[])
    : errorDigest((outcome as { code?: string | undefined }).code);
  record({ kind: 'dir', path, digest });
}

/** Records whether a path was a regular file (followed through symlinks). */
export function recordExists(path: string, isFile: boolean): void {
  record({ kind: 'exists', path, digest: isFile ? PRESENT : ABSENT });
}

/** Runs `load` and returns what it read, in the order it read it (each kind, path and digest once). */
export async function recordReads<T>(load: () => Promise<T>): Promise<{ value: T; reads: LoadRead[] }> {
  const reads: LoadRead[] = [];
  const value = await scope.run(reads, load);
  return { value, reads };
}

/** Largest file digested by digestNow (a config, source or pack file is far smaller; the loader caps them). */
const MAX_DIGEST_BYTES = 64 * 1024 * 1024;

function fileDigestNow(path: string, nofollow: boolean): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (nofollow ? constants.O_NOFOLLOW : 0));
  } catch (err) {
    return errorDigest((err as NodeJS.ErrnoException).code);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_DIGEST_BYTES) return UNREADABLE;
    const hash = createHash('sha256');
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) hash.update(buf.subarray(0, n));
    return hash.digest('hex');
  } catch {
    return UNREADABLE;
  } finally {
    closeSync(fd);
  }
}

/** What `kind` reads at `path` digests to now, by the rules the recording used. */
export function digestNow(kind: ReadKind, path: string): string {
  switch (kind) {
    case 'file':
    case 'file-nofollow':
      return fileDigestNow(path, kind === 'file-nofollow');
    case 'dir':
      try {
        if (!lstatSync(path).isDirectory()) return UNREADABLE;
        return dirDigest(readdirSync(path));
      } catch (err) {
        return errorDigest((err as NodeJS.ErrnoException).code);
      }
    case 'exists':
      try {
        return statSync(path).isFile() ? PRESENT : ABSENT;
      } catch {
        return ABSENT;
      }
    case 'stat':
      try {
        return statDigest(statSync(path, { bigint: true }));
      } catch (err) {
        return errorDigest((err as NodeJS.ErrnoException).code);
      }
  }
}

/** The digest of a `stat` read: `<ino>:<size>:<mtime ns>:<ctime ns>` (ctime cannot be set back). */
export const statDigest = (s: BigIntStats): string => `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;

/**
 * Why `digests` (one per read, in order, as a client computed them) do not show the content the
 * reads saw, or undefined when every one matches.
 */
export function readsMismatch(reads: readonly LoadRead[], digests: readonly string[]): string | undefined {
  if (digests.length !== reads.length)
    return `expected ${reads.length} digests of what it loaded, got ${digests.length}`;
  for (const [i, r] of reads.entries()) {
    if (digests[i] !== r.digest)
      return `${r.path} changed since it was loaded (${r.kind}: ${r.digest.slice(0, 12)} then, ${String(digests[i]).slice(0, 12)} now)`;
  }
  return undefined;
}
