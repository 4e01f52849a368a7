// Hand-made tar archives for the unpack tests: any entry type, any path, any size field, so hostile
// bundles (links, devices, `..`, absolute paths, bombs) can be built without touching the disk.
import { gzipSync } from 'node:zlib';
import { Header, type HeaderData } from 'tar';

export interface TarEntry extends HeaderData {
  path: string;
  /** File content (default empty). */
  data?: Buffer | string;
}

/** One entry: its 512-byte header and its content padded to whole blocks. */
export function tarEntry(entry: TarEntry): Buffer {
  const data = Buffer.from(entry.data ?? '');
  const block = Buffer.alloc(512);
  const { data: _omit, ...fields } = entry;
  new Header({
    type: 'File',
    mode: 0o644,
    uid: 0,
    gid: 0,
    mtime: new Date(0),
    ...fields,
    size: entry.type === undefined || entry.type === 'File' ? data.length : 0,
  }).encode(block, 0);
  const padded = Buffer.alloc(Math.ceil(data.length / 512) * 512);
  data.copy(padded);
  return Buffer.concat([block, padded]);
}

/** A whole archive (entries, then the two zero blocks that end it), uncompressed. */
export const tarOf = (entries: readonly TarEntry[]): Buffer =>
  Buffer.concat([...entries.map(tarEntry), Buffer.alloc(1024)]);

/** A whole archive, gzipped. */
export const tgzOf = (entries: readonly TarEntry[]): Buffer => gzipSync(tarOf(entries));
