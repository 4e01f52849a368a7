// Resolves a JS or wasm hook's `source` under its root (the config file's or pack's directory). `..`,
// absolute paths and symlinks that leave the root are refused at load.
import { readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, normalize, relative, resolve, sep } from 'node:path';
import { recordFileRead, UNREADABLE } from './read-log.js';

/** Largest JS hook source accepted. */
export const MAX_SOURCE_BYTES = 1024 * 1024;

export type SourceRead = { ok: true; path: string; code: string } | { ok: false; message: string };
type FileRead = { ok: true; path: string; bytes: Buffer } | { ok: false; message: string };

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

export async function readHookSource(root: string, source: string): Promise<SourceRead> {
  const read = await readHookFile(root, source, MAX_SOURCE_BYTES);
  return read.ok ? { ok: true, path: read.path, code: read.bytes.toString('utf8') } : read;
}

/** A hook's file (a JS source, a wasm module) under `root`, at most `maxBytes`. */
export async function readHookFile(root: string, source: string, maxBytes: number): Promise<FileRead> {
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
    if (!st.isFile() || st.size > maxBytes) recordFileRead(candidate, { code: UNREADABLE });
    if (!st.isFile()) return { ok: false, message: `not a regular file: ${real}` };
    if (st.size > maxBytes)
      return { ok: false, message: `source is larger than ${maxBytes} bytes (it has ${st.size})` };
    const bytes = await readFile(real);
    if (bytes.length > maxBytes)
      return { ok: false, message: `source is larger than ${maxBytes} bytes (it has ${bytes.length})` };
    recordFileRead(candidate, bytes);
    return { ok: true, path: real, bytes };
  } catch (err) {
    recordFileRead(candidate, { code: (err as NodeJS.ErrnoException).code ?? UNREADABLE });
    return {
      ok: false,
      message: `cannot read ${real} (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    };
  }
}
