// Codex CLI keeps hooks in TOML too: the `[hooks]` table of its config.toml (user, project, managed),
// the same events and groups as its hooks.json. Only that table is hook configuration; the file's
// other settings are Codex's own. `[hooks.state]` (per-hook enabled flags and trust hashes Codex
// records) is left out: hookwarden runs every configured hook, sandboxed.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { isObject } from '../contract/messages.js';
import type { ReadResult } from './read-json.js';
import { recordFileRead } from './read-log.js';

/** The `hooks` of a Codex config.toml, as a config object in the Codex dialect. */
export async function readTomlHooks(path: string): Promise<ReadResult> {
  let text: string;
  try {
    const bytes = await readFile(path);
    // What the load read, as for a JSON file (a daemon answers only while it digests the same).
    recordFileRead(resolve(path), bytes);
    text = bytes.toString('utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    recordFileRead(resolve(path), { code });
    if (code === 'ENOENT') return { ok: false, kind: 'missing', message: 'file not found' };
    return {
      ok: false,
      kind: 'unreadable',
      message: `cannot read the file (${code ?? (err as Error).message})`,
    };
  }
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const where = err.line === undefined ? '' : ` at line ${err.line}, column ${err.column}`;
    return { ok: false, kind: 'syntax', message: `invalid TOML${where}: ${err.message.split('\n')[0]}` };
  }
  const hooks = isObject(doc.hooks) ? { ...doc.hooks } : undefined;
  if (hooks !== undefined) delete hooks.state;
  return {
    ok: true,
    value: { dialect: 'codex', ...(hooks === undefined ? {} : { hooks }) },
    duplicates: [],
  };
}
