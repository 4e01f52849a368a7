// Codex CLI keeps hooks in TOML too: the `[hooks]` table of its config.toml (user, project, managed),
// the same events and groups as its hooks.json. Only that table is hook configuration; the file's
// other settings are Codex's own. `[hooks.state]` (per-hook enabled flags and trust hashes Codex
// records) is left out: hookwarden runs every configured hook, sandboxed.
import { parse, TomlError } from 'smol-toml';
import { isObject } from '../contract/messages.js';
import { type ReadResult, readConfigText } from './read-json.js';

/** The `hooks` of a Codex config.toml, as a config object in the Codex dialect. */
export async function readTomlHooks(path: string): Promise<ReadResult> {
  const read = await readConfigText(path);
  if (!read.ok) return read;
  const text = read.text;
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
