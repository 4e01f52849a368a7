// Reads and writes files of a pack without ever following a symlink at the last path component
// (O_NOFOLLOW), and without blocking on a FIFO swapped in (O_NONBLOCK). A contributed pack with
// `hookpack.lock.json -> ~/.bashrc` must not make `pack lock` overwrite the user's file.
import { type BigIntStats, constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { recordFileRead } from '../config/read-log.js';
import { HookwardenError } from '../contract/hookwarden-error.js';

export type PlainRead =
  | { readonly ok: true; readonly bytes: Buffer; readonly stat: BigIntStats }
  | { readonly ok: false; readonly code: string; readonly message: string };

const why = (code: string) =>
  code === 'ELOOP'
    ? 'is a symlink; symlinks are refused in a pack'
    : code === 'ENOENT'
      ? 'does not exist'
      : `cannot be read (${code})`;

/** The bytes and the stat of the very file read (fstat of the opened descriptor); a load records it. */
export async function readPlainFile(path: string): Promise<PlainRead> {
  const read = await readPlain(path);
  recordFileRead(resolve(path), read.ok ? read.bytes : { code: read.code }, true);
  return read;
}

async function readPlain(path: string): Promise<PlainRead> {
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    return { ok: false, code, message: why(code) };
  }
  try {
    const stat = await fh.stat({ bigint: true });
    if (!stat.isFile()) return { ok: false, code: 'ENOTFILE', message: 'is not a regular file' };
    return { ok: true, bytes: await fh.readFile(), stat };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    return { ok: false, code, message: why(code) };
  } finally {
    await fh.close();
  }
}

/** Writes (creates or truncates) a regular file of a pack; rejects with `pack_error` otherwise. */
export async function writePlainFile(path: string, text: string): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(path, flags, 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    const what = code === 'ELOOP' ? 'it is a symlink; symlinks are refused in a pack' : `(${code})`;
    throw new HookwardenError('pack_error', `cannot write ${path}: ${what}`, { cause: err });
  }
  try {
    if (!(await fh.stat()).isFile())
      throw new HookwardenError('pack_error', `cannot write ${path}: it is not a regular file`);
    await fh.truncate(0); // only once it is known to be a regular file
    await fh.writeFile(text);
  } finally {
    await fh.close();
  }
}
