// One config source read: a file (JSONC, duplicate keys reported: a policy file's fail closed; or a
// Codex config.toml, its [hooks] table; a file
// that cannot be read or parsed is fatal, whatever its scope) or an object handed in by the caller.
import { dirname, resolve } from 'node:path';
import { isObject, renderValue } from '../contract/messages.js';
import type { Scope } from '../contract/types.js';
import { type Diagnostic, DiagnosticSink } from './diagnostics.js';
import { readJsonFile } from './read-json.js';
import { readTomlHooks } from './read-toml.js';

/** Where a configuration comes from: a file, or an object with the folder its paths resolve against. */
export type SourceSpec =
  | {
      readonly kind: 'file';
      readonly path: string;
      readonly scope: Scope;
      /** A missing file is skipped silently (a user-level config usually is optional). */
      readonly optional?: boolean;
    }
  | {
      readonly kind: 'object';
      readonly value: unknown;
      readonly scope: Scope;
      readonly label: string;
      readonly dir: string;
    };

export interface ReadSource {
  readonly spec: SourceSpec;
  readonly sink: DiagnosticSink;
  readonly dir: string;
  readonly value: Record<string, unknown> | undefined;
}

export async function readSource(spec: SourceSpec, fatal: Diagnostic[]): Promise<ReadSource> {
  if (spec.kind === 'object') {
    const sink = new DiagnosticSink(spec.label);
    if (!isObject(spec.value)) {
      sink.error('', `expected a config object like {"hooks": {...}}, got ${renderValue(spec.value)}`);
      return { spec, sink, dir: spec.dir, value: undefined };
    }
    return { spec, sink, dir: spec.dir, value: spec.value };
  }
  const file = resolve(spec.path);
  const sink = new DiagnosticSink(spec.path);
  // Codex's config.toml: its [hooks] table (read-toml.ts).
  const read = file.endsWith('.toml') ? await readTomlHooks(file) : await readJsonFile(file);
  // A file that cannot be read or parsed at all is fatal, whatever its scope: nothing of it can be
  // trusted to be what was meant (a user file marked optional may simply not exist).
  const unusable = (message: string) => {
    sink.error('', message, false);
    fatal.push(sink.items[sink.items.length - 1]!);
    return { spec, sink, dir: dirname(file), value: undefined };
  };
  if (!read.ok) {
    if (read.kind === 'missing' && spec.optional === true)
      return { spec, sink, dir: dirname(file), value: undefined };
    return unusable(read.kind === 'missing' ? 'file not found' : read.message);
  }
  if (!isObject(read.value))
    return unusable(`expected a JSON object at the top level, got ${renderValue(read.value)}`);
  for (const d of read.duplicates) {
    const where = `line ${d.first.line}, column ${d.first.column} and line ${d.second.line}, column ${d.second.column}`;
    // A reviewer reads the first, the loader would keep the last: in a policy file that fails closed.
    if (spec.scope === 'policy')
      sink.error(
        d.path,
        `key written twice (${where}); a policy file must be unambiguous, so it fails closed`,
      );
    else sink.warn(d.path, `key written twice (${where}); the second one is used`);
  }
  return { spec, sink, dir: dirname(file), value: read.value };
}
