// Unpacks a bundle (a .tar.gz of a pack directory) into a new directory, safe by construction:
// - the compressed size, the unpacked size (a gzip bomb stops there) and the entry count are bounded;
// - only regular files and directories: a symlink, hard link, device, FIFO or any other entry type
//   refuses the whole bundle;
// - every path is relative, without `..`, `.` or empty components, backslashes or NUL;
// - the whole archive is read and checked before anything is written; files are then created with
//   O_EXCL | O_NOFOLLOW under directories this code made itself, so nothing can be written twice or
//   through a link. Modes are 0644, or 0755 for a file with an execute bit; owners and times are not
//   kept.
// The tar format itself (ustar, pax and GNU long names, checksums) is read by node-tar's Parser;
// nothing here uses node-tar's extractor.
import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { HookwardenError } from '../../contract/hookwarden-error.js';

const gunzipAsync = promisify(gunzip);

export interface UnpackLimits {
  readonly maxBundleBytes: number;
  readonly maxUnpackedBytes: number;
  readonly maxFiles: number;
}

/** Longest entry path accepted (bytes) and deepest nesting: far beyond any real pack. */
const MAX_PATH_BYTES = 1024;
const MAX_DEPTH = 32;

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const LINK_TYPES = new Set(['SymbolicLink', 'Link']);
const SPECIAL_TYPES = new Set(['CharacterDevice', 'BlockDevice', 'FIFO']);

interface Entry {
  readonly path: string;
  readonly dir: boolean;
  readonly mode: number;
  data: Buffer[];
}

const refuse = (message: string): never => {
  throw new HookwardenError('pack_error', `bundle refused: ${message}`);
};

/** The entry's path, made relative and checked; '' for the archive's root directory itself. */
export function entryPath(raw: string): { ok: true; path: string } | { ok: false; message: string } {
  const bad = (why: string) => ({ ok: false as const, message: `${JSON.stringify(raw)}: ${why}` });
  if (raw.includes('\0')) return bad('a NUL in the path');
  if (raw.startsWith('/')) return bad('an absolute path');
  if (raw.includes('\\') || /^[A-Za-z]:/.test(raw)) return bad('a backslash or drive letter in the path');
  if (Buffer.byteLength(raw) > MAX_PATH_BYTES) return bad(`a path longer than ${MAX_PATH_BYTES} bytes`);
  let rel = raw;
  while (rel.startsWith('./')) rel = rel.slice(2);
  if (rel === '.' || rel === '') return { ok: true, path: '' };
  if (rel.endsWith('/')) rel = rel.slice(0, -1);
  const parts = rel.split('/');
  if (parts.includes('..')) return bad('a ".." component leaves the bundle');
  if (parts.some((p) => p === '' || p === '.')) return bad('an empty or "." path component');
  if (parts.length > MAX_DEPTH) return bad(`nested deeper than ${MAX_DEPTH} directories`);
  return { ok: true, path: rel };
}

/** The tar stream of a bundle: gunzipped with its output bounded, or as is when it is a plain tar. */
async function tarBytes(bundle: Buffer, limits: UnpackLimits): Promise<Buffer> {
  if (bundle.length > limits.maxBundleBytes)
    refuse(
      `${bundle.length} bytes; a bundle may have at most ${limits.maxBundleBytes} (remotePacks.maxBundleBytes)`,
    );
  if (bundle[0] !== 0x1f || bundle[1] !== 0x8b) {
    // A server that applied its own Content-Encoding may have handed over the tar itself.
    if (bundle.length >= 512 && bundle.subarray(257, 262).toString('latin1') === 'ustar') {
      if (bundle.length > limits.maxUnpackedBytes)
        refuse(
          `${bundle.length} bytes unpacked; at most ${limits.maxUnpackedBytes} (remotePacks.maxUnpackedBytes)`,
        );
      return bundle;
    }
    refuse('not a gzip-compressed tar archive (make bundles with `hookwarden pack bundle`)');
  }
  try {
    return await gunzipAsync(bundle, { maxOutputLength: limits.maxUnpackedBytes });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      refuse(
        `it unpacks to more than ${limits.maxUnpackedBytes} bytes (remotePacks.maxUnpackedBytes): a gzip bomb, or a pack far too large`,
      );
    return refuse(`the gzip stream is corrupt or truncated (${(err as Error).message})`);
  }
}

/** Reads every entry into memory (bounded by the unpacked size), checking each header first. */
async function readEntries(tar: Buffer, limits: UnpackLimits): Promise<Entry[]> {
  const entries: Entry[] = [];
  let problem: string | undefined;
  await new Promise<void>((resolve) => {
    const parser = new Parser({
      strict: true,
      onReadEntry: (e: ReadEntry) => {
        const why = problem ?? checkHeader(e, entries.length, limits);
        if (why !== undefined) {
          problem ??= why;
          e.resume();
          parser.abort(new Error(why));
          return;
        }
        const p = entryPath(e.path);
        if (!p.ok || p.path === '') {
          e.resume(); // the archive's own root directory ("./")
          return;
        }
        const entry: Entry = { path: p.path, dir: e.type === 'Directory', mode: e.mode ?? 0o644, data: [] };
        entries.push(entry);
        e.on('data', (chunk: Buffer) => entry.data.push(chunk));
      },
    });
    parser.on('error', (err: Error) => {
      problem ??= `the tar archive is corrupt or truncated (${err.message})`;
    });
    // Whichever comes first: the end of the archive, or an abort after a refused entry.
    for (const event of ['end', 'close', 'abort']) parser.once(event, () => queueMicrotask(resolve));
    parser.end(tar);
  });
  return problem === undefined ? entries : refuse(problem);
}

function checkHeader(e: ReadEntry, seen: number, limits: UnpackLimits): string | undefined {
  if (seen + 1 > limits.maxFiles) return `more than ${limits.maxFiles} entries (remotePacks.maxFiles)`;
  const name = JSON.stringify(e.path);
  if (LINK_TYPES.has(e.type))
    return `${name} is a ${e.type === 'Link' ? 'hard link' : 'symlink'}; a pack is plain files`;
  if (SPECIAL_TYPES.has(e.type)) return `${name} is a device file or FIFO; a pack is plain files`;
  if (!FILE_TYPES.has(e.type) && e.type !== 'Directory')
    return `${name} has the unsupported entry type ${e.type}`;
  const p = entryPath(e.path);
  if (!p.ok) return p.message;
  return undefined;
}

/**
 * Unpacks `bundle` into `dest`, a new or empty directory. Rejects with
 * `pack_error` ("bundle refused: …") naming the first problem; `dest` may then hold part of the
 * bundle, and the caller removes it.
 */
export async function unpackBundle(
  bundle: Buffer,
  dest: string,
  limits: UnpackLimits,
): Promise<{ files: number; bytes: number }> {
  const entries = await readEntries(await tarBytes(bundle, limits), limits);
  const kinds = new Map<string, 'file' | 'dir'>();
  for (const e of entries) {
    const parts = e.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      if (kinds.get(parent) === 'file')
        refuse(`${JSON.stringify(e.path)} lies under the file ${JSON.stringify(parent)}`);
      kinds.set(parent, 'dir');
    }
    const earlier = kinds.get(e.path);
    if (earlier === 'file' || (earlier === 'dir' && !e.dir))
      refuse(`${JSON.stringify(e.path)} appears twice in the archive`);
    kinds.set(e.path, e.dir ? 'dir' : 'file');
  }
  let files = 0;
  let bytes = 0;
  await mkdir(dest, { recursive: true, mode: 0o755 });
  for (const e of entries) {
    const target = join(dest, e.path);
    if (e.dir) {
      await mkdir(target, { recursive: true, mode: 0o755 });
      continue;
    }
    const parent = e.path.includes('/') ? join(dest, e.path.slice(0, e.path.lastIndexOf('/'))) : dest;
    await mkdir(parent, { recursive: true, mode: 0o755 });
    const mode = (e.mode & 0o111) !== 0 ? 0o755 : 0o644;
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    const fh = await open(target, flags, mode);
    try {
      const data = Buffer.concat(e.data);
      await fh.writeFile(data);
      await fh.chmod(mode); // exact, whatever the umask
      files++;
      bytes += data.length;
    } finally {
      await fh.close();
    }
  }
  return { files, bytes };
}
