// Reads one of a pack's own JSON files (lock, signatures): a plain file (no symlink), valid JSON,
// checked against its schema, every problem naming the file.
import { join } from 'node:path';
import type { z } from 'zod';
import { duplicateProblem, parseConfigText } from '../config/read-json.js';
import { describeIssues } from './issues.js';
import { readPlainFile } from './plain-file.js';

export type PackJsonRead<T> =
  | { readonly ok: true; readonly data: T; readonly raw: unknown }
  | { readonly ok: false; readonly missing: boolean; readonly problem: string };

/** `missingHint` completes "no <file>" when the file does not exist. */
export async function readPackJson<S extends z.ZodType>(
  root: string,
  file: string,
  schema: S,
  missingHint = '',
): Promise<PackJsonRead<z.infer<S>>> {
  const read = await readPlainFile(join(root, file));
  if (!read.ok) {
    if (read.code === 'ENOENT') return { ok: false, missing: true, problem: `no ${file}${missingHint}` };
    return { ok: false, missing: false, problem: `${file} ${read.message}` };
  }
  return parsePackJson(read.bytes, file, schema);
}

/** Parses the bytes of one of a pack's JSON files (as readPackJson does once it has read them). */
export function parsePackJson<S extends z.ZodType>(
  bytes: Buffer,
  file: string,
  schema: S,
): PackJsonRead<z.infer<S>> {
  const json = parseConfigText(bytes.toString('utf8'), { comments: false });
  if (!json.ok) return { ok: false, missing: false, problem: `${file}: ${json.message}` };
  if (json.duplicates.length > 0)
    return {
      ok: false,
      missing: false,
      problem: json.duplicates.map((d) => duplicateProblem(file, d)).join('; '),
    };
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) {
    return { ok: false, missing: false, problem: describeIssues(file, parsed.error, json.value).join('; ') };
  }
  return { ok: true, data: parsed.data, raw: json.value };
}
