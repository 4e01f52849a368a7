// Resolves a JS hook's `source` under its root (the config file's or pack's directory). `..`,
// absolute paths and symlinks that leave the root are refused at load.
import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, normalize, relative, resolve, sep } from 'node:path';
import { recordFileRead, UNREADABLE } from './read-log.js';

/** Largest JS hook source accepted. */
export const MAX_SOURCE_BYTES = 1024 * 1024;

export type SourceRead = { ok: true; path: string; code: string } | { ok: false; message: string };

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

export async function readHookSource(root: string, source: string): Promise<SourceRead> {
  if (isAbsolute(source))
    return {
      ok: false,
      message: 'absolute source paths are refused (give a path relative to the config file)',
    };
  if (normalize(source).split(/[\\/]/).includes('..')) {
    return {
      ok: false,
      message: 'source paths may not contain ".." (the file must be under the config directory)',
    };
  }
  const candidate = resolve(root, source);
  let real: string;
  let realRoot: string;
  try {
    realRoot = await realpath(root);
    real = await realpath(candidate);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    recordFileRead(candidate, { code });
    return {
      ok: false,
      message: code === 'ENOENT' ? `file not found: ${candidate}` : `cannot resolve ${candidate} (${code})`,
    };
  }
  if (!inside(realRoot, real)) {
    recordFileRead(candidate, await readFile(real).catch((err) => ({ code: err.code ?? UNREADABLE })));
    return {
      ok: false,
      message: `source resolves outside the config directory (${real}); symlinks may not leave the root`,
    };
  }
  try {
    const st = await stat(real);
    if (!st.isFile() || st.size > MAX_SOURCE_BYTES) recordFileRead(candidate, { code: UNREADABLE });
    if (!st.isFile()) return { ok: false, message: `not a regular file: ${real}` };
    if (st.size > MAX_SOURCE_BYTES)
      return { ok: false, message: `source is larger than ${MAX_SOURCE_BYTES} bytes` };
    const bytes = await readFile(real);
    recordFileRead(candidate, bytes);
    return { ok: true, path: real, code: bytes.toString('utf8') };
  } catch (err) {
    recordFileRead(candidate, { code: (err as NodeJS.ErrnoException).code ?? UNREADABLE });
    return {
      ok: false,
      message: `cannot read ${real} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    };
  }
}
