// The files `claude-code install --write` writes, and nothing else: the hooks copy, the backup, a
// temporary file and the rewritten settings file. A repository can ship symbolic links next to its
// settings file (`settings.json.bak -> ~/.claude/settings.json`), so every file is created with
// O_CREAT | O_EXCL | O_NOFOLLOW (never through a link, never over an existing file), the temporary
// file under an unpredictable name in the settings file's own directory, and the settings file is
// replaced by renaming it there. A symbolic link where install writes — the settings file, its
// directory, a neighbour it would create — is refused with a message naming it.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../usage-error.js';

const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

const linkRefusal = (path: string, what: string) =>
  new UsageError(
    `${path} is a symbolic link: install writes only regular files it creates itself (${what}), never through a link; remove the link, or copy the file it points to in its place`,
  );

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Refuses `path` when it is a symbolic link (or anything but a regular file, when it exists). */
export function refuseLinkedFile(path: string, what: string): void {
  const st = lstatOrUndefined(path);
  if (st === undefined) return;
  if (st.isSymbolicLink()) throw linkRefusal(path, what);
  if (!st.isFile()) throw new UsageError(`${path} is not a regular file (${what})`);
}

/** Refuses a directory install would write in that is a symbolic link (or not a directory). */
export function refuseLinkedDir(dir: string): void {
  const st = lstatOrUndefined(dir);
  if (st === undefined) throw new UsageError(`${dir} does not exist: create it first`);
  if (st.isSymbolicLink()) throw linkRefusal(dir, 'the directory it writes in');
  if (!st.isDirectory()) throw new UsageError(`${dir} is not a directory`);
}

/** Creates `path` with `content` (O_EXCL | O_NOFOLLOW); refuses a link or a file already there. */
function createFile(path: string, content: string | Buffer, mode: number): void {
  let fd: number;
  try {
    fd = openSync(path, CREATE, mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if ((code === 'EEXIST' || code === 'ELOOP') && lstatOrUndefined(path)?.isSymbolicLink() === true)
      throw linkRefusal(path, 'it would be written through');
    throw new UsageError(`cannot create ${path} (${code})`);
  }
  try {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A file install creates: where, what, and how to get another name when one is in the way. */
export interface NewFile {
  readonly path: string;
  readonly content: string | Buffer;
  /** Appended to "exists (with other content): move it away". */
  readonly hint: string;
}

/** Whether `file` is already there with its content (true) or absent (false); throws otherwise. */
function alreadyThere(file: NewFile): boolean {
  refuseLinkedDir(dirname(file.path));
  const st = lstatOrUndefined(file.path);
  if (st?.isSymbolicLink() === true) throw linkRefusal(file.path, 'it would be written through');
  if (st === undefined) return false;
  if (st.isFile() && readFileSync(file.path).equals(Buffer.from(file.content))) return true;
  throw new UsageError(`${file.path} exists (with other content): move it away${file.hint}`);
}

/**
 * Writes new files, each unless one with the same content is there already. Every file is checked
 * before any is written: a file with other content is never overwritten, and a link is refused.
 */
export function writeNewFiles(files: readonly NewFile[], mode: number): void {
  const missing = files.filter((f) => !alreadyThere(f));
  for (const f of missing) createFile(f.path, f.content, mode);
}

/** Replaces the regular file `path` by a new one with `content`, renamed into place. */
export function replaceFile(path: string, content: string, mode: number): void {
  const dir = dirname(path);
  refuseLinkedDir(dir);
  refuseLinkedFile(path, 'the file it rewrites');
  const tmp = join(dir, `.${basename(path)}.hookwarden-${randomBytes(8).toString('hex')}.tmp`);
  createFile(tmp, content, mode);
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new UsageError(`cannot replace ${path} (${(err as NodeJS.ErrnoException).code})`);
  }
}
