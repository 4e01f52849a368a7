// hookpack.lock.json: `{ "version": 1, "digest": "sha256:…", "files": { "<path>": "sha256:<hex>" } }`,
// files in byte order of their paths. `pack lock` writes it; verification compares the files on disk
// with it, which is how a refusal can name every changed, added or removed file.
import { join } from 'node:path';
import { z } from 'zod';
import { DIGEST_PATTERN } from '../config/pin-loader.js';
import { packDigest } from './digest.js';
import { LOCK_FILE } from './names.js';
import { writePlainFile } from './plain-file.js';
import { readPackJson } from './read-pack-json.js';
import type { PackWalk } from './walk.js';

const digestString = z
  .string({ error: 'expected "sha256:<64 hex>"' })
  .regex(DIGEST_PATTERN, { error: 'expected "sha256:<64 hex>"' });

const packLockSchema = z.strictObject(
  {
    version: z.literal(1, { error: 'expected 1' }),
    digest: digestString,
    files: z.record(z.string(), digestString, { error: 'expected an object of path → digest' }),
  },
  { error: 'expected an object {version, digest, files}' },
);

/** The lock file's content. */
export interface PackLock {
  readonly version: 1;
  /** The pack digest, `sha256:<64 hex>`. */
  readonly digest: string;
  /** Relative path → `sha256:<64 hex>` of the file, in byte order of the paths. */
  readonly files: Readonly<Record<string, string>>;
}

export function lockOf(walk: PackWalk): PackLock {
  const files: Record<string, string> = Object.create(null);
  for (const [path, hex] of walk.files) files[path] = `sha256:${hex}`;
  return { version: 1, digest: packDigest(walk.files), files };
}

function renderLock(lock: PackLock): string {
  return `${JSON.stringify({ version: lock.version, digest: lock.digest, files: lock.files }, null, 2)}\n`;
}

export async function writeLockFile(root: string, lock: PackLock): Promise<void> {
  await writePlainFile(join(root, LOCK_FILE), renderLock(lock));
}

export type LockRead =
  | { readonly ok: true; readonly lock: PackLock; readonly files: ReadonlyMap<string, string> }
  | { readonly ok: false; readonly missing: boolean; readonly problem: string };

/** Reads and checks the lock; `files` maps paths to hex digests (null-prototype safe). */
export async function readLockFile(root: string): Promise<LockRead> {
  const read = await readPackJson(root, LOCK_FILE, packLockSchema, ' (run `hookwarden pack lock <dir>`)');
  if (!read.ok) return read;
  // Built from the raw entries: a "__proto__" path stays an ordinary key.
  const raw = (read.raw as { files: Record<string, string> }).files;
  const files = new Map(Object.entries(raw).map(([p, d]) => [p, d.slice('sha256:'.length)] as const));
  const digest = packDigest(files);
  if (digest !== read.data.digest) {
    return {
      ok: false,
      missing: false,
      problem: `${LOCK_FILE}: digest ${read.data.digest} does not match its own file list (${digest}): the lock was edited by hand`,
    };
  }
  return { ok: true, lock: read.data as PackLock, files };
}
