// Reads a pack directory: every regular file except the lock and the signature file, hashed with
// SHA-256. A pack is plain files: a symlink (or FIFO, socket, device) anywhere in it is refused and
// never followed. The stat fingerprint taken before each read lets a
// command hook check, just before it spawns, that the files are still the ones verified.
import type { BigIntStats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { recordDirRead } from '../config/read-log.js';
import type { PackFingerprint } from '../registry/hook-definition.js';
import { sha256Hex, sortPaths } from './digest.js';
import { MANIFEST_FILE, NOT_CONTENT } from './names.js';
import { readPlainFile } from './plain-file.js';

export interface PackWalk {
  /** Absolute path of the pack directory. */
  readonly root: string;
  /** Relative `/`-separated path → hex SHA-256 of the content, in byte order of the paths. */
  readonly files: ReadonlyMap<string, string>;
  /** hookpack.json exactly as it was hashed (undefined when absent). */
  readonly manifest: Buffer | undefined;
  /** Every directory of the pack (absolute), the root first. */
  readonly dirs: readonly string[];
  readonly fingerprint: PackFingerprint;
  /** Why this is not a valid pack directory (symlinks, special files, unreadable); empty when fine. */
  readonly problems: readonly string[];
}

const toPosix = (p: string) => (sep === '/' ? p : p.split(sep).join('/'));

/** The part of a file's stat that any write changes (ctime cannot be set back). */
export const statKey = (s: BigIntStats): string => `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;

export async function walkPack(dir: string): Promise<PackWalk> {
  const root = resolve(dir);
  const problems: string[] = [];
  const hashes = new Map<string, string>();
  const fileStats = new Map<string, string>();
  const listings = new Map<string, string>();
  const dirs: string[] = [];
  let manifest: Buffer | undefined;
  const done = () => {
    const files = new Map(sortPaths(hashes.keys()).map((p) => [p, hashes.get(p)!] as const));
    const fingerprint: PackFingerprint = { root, dirs: listings, files: fileStats };
    return { root, files, manifest, dirs, fingerprint, problems };
  };

  try {
    const st = await lstat(root);
    if (st.isSymbolicLink() || !st.isDirectory()) recordDirRead(root, { code: 'ENOTDIR' });
    if (st.isSymbolicLink()) {
      problems.push(`${root} is a symlink; a pack is plain files: give the real directory`);
      return done();
    }
    if (!st.isDirectory()) {
      problems.push(`${root} is not a directory`);
      return done();
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    recordDirRead(root, { code });
    problems.push(code === 'ENOENT' ? `pack directory not found: ${root}` : `cannot read ${root} (${code})`);
    return done();
  }

  const visit = async (abs: string): Promise<void> => {
    dirs.push(abs);
    const rel = toPosix(relative(root, abs));
    let entries: string[];
    try {
      entries = (await readdir(abs)).sort();
      recordDirRead(abs, entries);
    } catch (err) {
      recordDirRead(abs, err as NodeJS.ErrnoException);
      problems.push(`cannot list ${rel || '.'} (${(err as NodeJS.ErrnoException).code})`);
      return;
    }
    const content = rel === '' ? entries.filter((n) => !NOT_CONTENT.has(n)) : entries;
    listings.set(rel, content.join('\0'));
    for (const name of content) {
      const path = rel === '' ? name : `${rel}/${name}`;
      const full = join(abs, name);
      // lstat never follows a link; the file itself is then opened with O_NOFOLLOW and its fingerprint
      // taken from the opened descriptor, before the read, so a later change shows.
      let st: BigIntStats;
      try {
        st = await lstat(full, { bigint: true });
      } catch (err) {
        problems.push(`cannot read ${path} (${(err as NodeJS.ErrnoException).code})`);
        continue;
      }
      if (st.isSymbolicLink()) problems.push(`${path} is a symlink; symlinks are refused in a pack`);
      else if (st.isDirectory()) await visit(full);
      else if (!st.isFile()) problems.push(`${path} is not a regular file`);
      else {
        const read = await readPlainFile(full);
        if (!read.ok) problems.push(`${path} ${read.message}`);
        else {
          hashes.set(path, sha256Hex(read.bytes));
          fileStats.set(path, statKey(read.stat));
          if (path === MANIFEST_FILE) manifest = read.bytes;
        }
      }
    }
  };
  await visit(root);
  return done();
}
