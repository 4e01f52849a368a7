// `hookwarden serve token`: a new bearer token, its entry, and (with --add-to) the entry appended to
// an auth file in one rename.
import type { Stats } from 'node:fs';
import { chmod, chown, rename, rm, stat, writeFile } from 'node:fs/promises';
import { AuthFileError, readAuthFile } from '../../server/auth-file.js';
import { newToken, type TokenEntry } from '../../server/tokens.js';
import { UsageError } from '../usage-error.js';

export interface TokenFlags {
  tenant?: string;
  admin?: boolean;
  note?: string;
  addTo?: string;
}

/**
 * Adds an entry to an auth file by writing the new file beside it and renaming it over the old one
 * (a reader never sees half a file). A new file gets mode 0600; an existing one keeps its mode and
 * owner, so a server running as another user can still read it.
 */
async function addToAuthFile(path: string, entry: TokenEntry): Promise<void> {
  let old: Stats | undefined;
  try {
    old = await stat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new UsageError(`--add-to ${path}: cannot read (${(err as NodeJS.ErrnoException).code})`);
  }
  let entries: TokenEntry[] = [];
  if (old !== undefined) {
    try {
      entries = readAuthFile(path);
    } catch (err) {
      if (err instanceof AuthFileError)
        throw new UsageError(`--add-to: ${err.message}; the file was not changed`);
      throw err;
    }
  }
  const text = `${JSON.stringify({ tokens: [...entries, entry] }, null, 2)}\n`;
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, text, { mode: 0o600, flag: 'wx' });
    if (old !== undefined) {
      await chmod(tmp, old.mode & 0o755);
      if (process.getuid?.() === 0) await chown(tmp, old.uid, old.gid);
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw new UsageError(
      `--add-to ${path}: cannot write (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
}

export async function runServeToken(flags: TokenFlags): Promise<number> {
  if ((flags.tenant === undefined) === (flags.admin !== true))
    throw new UsageError('serve token needs exactly one of --tenant <id> or --admin');
  if (flags.note !== undefined && !/^[^\u0000-\u001f\u007f]{0,256}$/.test(flags.note))
    throw new UsageError('--note: expected at most 256 characters, without control characters');
  let made: ReturnType<typeof newToken>;
  try {
    made = newToken(flags.tenant !== undefined ? { tenant: flags.tenant } : { admin: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const entry: TokenEntry = flags.note === undefined ? made.entry : { ...made.entry, note: flags.note };
  if (flags.addTo !== undefined) await addToAuthFile(flags.addTo, entry);
  process.stdout.write(`${JSON.stringify({ token: made.token, entry })}\n`);
  return 0;
}
