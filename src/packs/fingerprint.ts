// What a verified pack looked like on disk (inode, size, mtime, ctime of every file; the entries of
// every directory). Command hooks of a pack run the pack's files from disk, so just before a spawn the
// fingerprint is checked again: a file changed, added or removed after verification is refused
// (`pack_tampered`) instead of run. Writing a file always moves its ctime, which no user can set back.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PackFingerprint } from '../registry/hook-definition.js';
import { NOT_CONTENT } from './names.js';
import { statKey } from './walk.js';

export type { PackFingerprint };

/** The paths that differ from the fingerprint (empty when the pack is as verified). */
export async function fingerprintChanges(fp: PackFingerprint): Promise<string[]> {
  const changed: string[] = [];
  await Promise.all([
    ...[...fp.dirs].map(async ([rel, listing]) => {
      try {
        const names = (await readdir(join(fp.root, rel))).sort();
        const content = rel === '' ? names.filter((n) => !NOT_CONTENT.has(n)) : names;
        if (content.join('\0') !== listing) changed.push(rel === '' ? './' : `${rel}/`);
      } catch {
        changed.push(rel === '' ? './' : `${rel}/`);
      }
    }),
    ...[...fp.files].map(async ([rel, key]) => {
      try {
        const s = await lstat(join(fp.root, rel), { bigint: true });
        if (!s.isFile() || statKey(s) !== key) changed.push(rel);
      } catch {
        changed.push(rel);
      }
    }),
  ]);
  return changed.sort();
}
