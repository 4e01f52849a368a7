// The pack digest (docs/packs.md): SHA-256 over the lines `<path>\0<hex sha256 of the file>\n`, one per
// file, sorted by the byte order of the UTF-8 paths. Printed as `sha256:<64 hex>`.
import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256 of some bytes. */
export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Byte-order comparison of two paths (UTF-8), independent of locale and of UTF-16 code units. */
export function comparePaths(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Paths sorted by byte order. */
export function sortPaths(paths: Iterable<string>): string[] {
  return [...paths].sort(comparePaths);
}

/** The pack digest of `files` (relative path → hex SHA-256 of its content). */
export function packDigest(files: ReadonlyMap<string, string>): string {
  const hash = createHash('sha256');
  for (const path of sortPaths(files.keys())) hash.update(`${path}\0${files.get(path)}\n`);
  return `sha256:${hash.digest('hex')}`;
}
