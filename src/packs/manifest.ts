// hookpack.json: `{ name, version, description?, hooks }`, hooks in exactly the config shape, paths
// relative to the pack. Parsed from the very bytes that were hashed, never re-read from disk.
import { z } from 'zod';
import { PACK_NAME_PATTERN } from '../config/pin-loader.js';
import { duplicateProblem, parseConfigText } from '../config/read-json.js';
import { describeIssues } from './issues.js';
import { MANIFEST_FILE } from './names.js';

const packManifestSchema = z.object(
  {
    $schema: z.string({ error: 'expected a string' }).optional(),
    name: z.string({ error: 'expected a pack name' }).regex(PACK_NAME_PATTERN, {
      error: 'expected 1-128 characters from A-Z a-z 0-9 . _ : @ / + - (starting with a letter or digit)',
    }),
    version: z
      .string({ error: 'expected a version string such as "1.2.0"' })
      .min(1, { error: 'expected a version string such as "1.2.0"' })
      .max(64, { error: 'expected at most 64 characters' }),
    description: z.string({ error: 'expected a string' }).optional(),
    // Walked entry by entry by the config loader, which names the JSON path of every problem.
    hooks: z.record(z.string(), z.unknown(), { error: 'expected an object mapping event names to arrays' }),
  },
  { error: 'expected an object {name, version, description?, hooks}' },
);

export interface PackManifest {
  readonly name: string;
  readonly version: string;
  readonly description: string | undefined;
  readonly hooks: unknown;
}

const KNOWN = new Set(Object.keys(packManifestSchema.shape));

export type ManifestRead =
  | { readonly ok: true; readonly manifest: PackManifest; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly problems: readonly string[] };

export function parseManifest(bytes: Buffer | undefined): ManifestRead {
  if (bytes === undefined) return { ok: false, problems: [`no ${MANIFEST_FILE} in the pack`] };
  const json = parseConfigText(bytes.toString('utf8'), { comments: false });
  if (!json.ok) return { ok: false, problems: [`${MANIFEST_FILE}: ${json.message}`] };
  // What the reviewer read must be what runs: a key written twice refuses the pack.
  if (json.duplicates.length > 0)
    return { ok: false, problems: json.duplicates.map((d) => duplicateProblem(MANIFEST_FILE, d)) };
  const parsed = packManifestSchema.safeParse(json.value);
  if (!parsed.success)
    return { ok: false, problems: describeIssues(MANIFEST_FILE, parsed.error, json.value) };
  const raw = json.value as Record<string, unknown>;
  const warnings = Object.keys(raw)
    .filter((k) => !KNOWN.has(k))
    .map((k) => `${MANIFEST_FILE}: ${k}: unknown top-level key ignored`);
  const { name, version, description } = parsed.data;
  // The raw hooks (not zod's copy): the loader walks them with null-prototype-safe code.
  return { ok: true, manifest: { name, version, description, hooks: raw.hooks }, warnings };
}
