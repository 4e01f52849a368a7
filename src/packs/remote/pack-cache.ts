// The on-disk cache of fetched bundles, private to the user running hookwarden (mode 0700):
//   <cacheDir>/sha256-<hex>/       an unpacked bundle, named by its pack digest (content-addressed)
//   <cacheDir>/url-<sha256 of the URL>.json
//                                   the last known good bundle of a URL: {url, etag, digest, checkedAt,
//                                   packName, packVersion}
// A bundle directory is only ever created whole (unpacked elsewhere in the cache, then renamed), and
// is verified against its pin at every load like any pinned pack: the cache is never trusted.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { DIGEST_PATTERN } from '../../config/pin-loader.js';
import { HookwardenError } from '../../contract/hookwarden-error.js';
import { sha256Hex } from '../digest.js';
import { SIG_FILE } from '../names.js';
import { readPlainFile } from '../plain-file.js';

const recordSchema = z.strictObject({
  version: z.literal(1),
  url: z.string(),
  etag: z.string().max(1024).optional(),
  digest: z.string().regex(DIGEST_PATTERN),
  /** When the server last confirmed this bundle (ms since the epoch). */
  checkedAt: z.number().int().nonnegative(),
  /** The pack's name and version when it was verified (a url pin never rolls back below it). */
  packName: z.string().max(128).optional(),
  packVersion: z.string().max(64).optional(),
});

/** The last known good bundle of a URL. */
export type UrlRecord = z.infer<typeof recordSchema>;

/** `<cacheDir>/sha256-<hex>` for a pack digest `sha256:<hex>`. */
export const bundleDir = (cacheDir: string, digest: string) =>
  join(cacheDir, `sha256-${digest.slice('sha256:'.length)}`);

const recordFile = (cacheDir: string, url: string) => join(cacheDir, `url-${sha256Hex(url)}.json`);

/**
 * Creates the cache directory (missing parents too, mode 0700) and checks it is private: a real
 * directory (no symlink), owned by this user, that no one else can list or write.
 */
export async function ensurePrivateDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new HookwardenError(
      'pack_error',
      `cannot create the pack cache ${dir} (${code}); set another with the remotePacks.cacheDir option or --pack-cache <dir>`,
      { cause: err },
    );
  }
  const st = await lstat(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory())
    throw new HookwardenError(
      'pack_error',
      `the pack cache ${dir} is not a directory (a symlink?): give a real one`,
    );
  if (uid !== undefined && st.uid !== uid)
    throw new HookwardenError(
      'pack_error',
      `the pack cache ${dir} belongs to uid ${st.uid}, not to this user (${uid}): use a directory of your own`,
    );
  // 0700 as made; 0711 is accepted too: others may then traverse into a bundle whose digest they know
  // (what a hook running as "nobody" needs), but never list the cache or write to it.
  if ((st.mode & 0o066) !== 0)
    throw new HookwardenError(
      'pack_error',
      `the pack cache ${dir} can be read or written by other users (mode ${(st.mode & 0o777).toString(8)}): run chmod 700 ${dir} (or 711, for hooks that run as "nobody")`,
    );
}

/** The record of `url`, or undefined when there is none (or it is unreadable: it is only a cache). */
export async function readUrlRecord(cacheDir: string, url: string): Promise<UrlRecord | undefined> {
  const read = await readPlainFile(recordFile(cacheDir, url));
  if (!read.ok) return undefined;
  try {
    const parsed = recordSchema.safeParse(JSON.parse(read.bytes.toString('utf8')));
    return parsed.success && parsed.data.url === url ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the record of `url` atomically (a temporary file renamed over it). */
export async function writeUrlRecord(cacheDir: string, record: UrlRecord): Promise<void> {
  const file = recordFile(cacheDir, record.url);
  await replaceAtomically(
    file,
    `${file}.${randomBytes(6).toString('hex')}.tmp`,
    `${JSON.stringify(record)}\n`,
    0o600,
  );
}

/** Writes `content` to a new file `tmp` (O_EXCL | O_NOFOLLOW) and renames it over `file`. */
async function replaceAtomically(file: string, tmp: string, content: string | Buffer, mode: number) {
  const fh = await open(
    tmp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    mode,
  );
  try {
    await fh.writeFile(content);
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Puts a newly fetched signature file into a cached bundle (same content, new signatures: a key
 * rotation): a temporary file in the bundle, renamed over its hookpack.sig.
 */
export async function replaceSignature(dir: string, bytes: Buffer): Promise<void> {
  const tmp = join(dir, `.${SIG_FILE}.${randomBytes(6).toString('hex')}.tmp`);
  await replaceAtomically(join(dir, SIG_FILE), tmp, bytes, 0o644);
}

/** Whether a bundle directory exists (as a real directory). */
export async function hasBundle(dir: string): Promise<boolean> {
  try {
    return (await lstat(dir)).isDirectory();
  } catch {
    return false;
  }
}
