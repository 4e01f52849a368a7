// The `--auth` file: `{"tokens": [{"sha256": "<64 hex>", "tenant": "<id>"} | {"sha256", "admin": true}]}`,
// each entry as printed by `hookwarden serve token` (optionally with a "note"). Read strictly: strict
// JSON, no key written twice, no unknown field, every problem named by its JSON path. Whoever can
// write the file can grant themselves a token, so, like sshd's StrictModes, a file that its group
// or others may write, or that belongs to another user than root or the one running the server,
// is refused. Symlinks are followed (Kubernetes mounts secrets and config maps through them).
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { renderValue } from '../config/diagnostics.js';
import { duplicateProblem, parseConfigText } from '../config/read-json.js';
import { tenantIdProblem } from '../config/tenant-id.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { describeIssues } from '../packs/issues.js';
import type { TokenEntry } from './tokens.js';

/** An auth file holds hashes only; anything this large is the wrong file. */
const MAX_AUTH_FILE_BYTES = 16 * 1024 * 1024;

/** The auth file is unusable (`auth_file_invalid`): `problems` each name the file, the JSON path and the value. */
export class AuthFileError extends HookwardenError {
  override readonly name = 'AuthFileError';
  override readonly code = 'auth_file_invalid';
  constructor(
    readonly file: string,
    problems: readonly string[],
  ) {
    super('auth_file_invalid', problems.join('; '), { problems });
  }
}

const note = z
  .string({ error: 'expected a string' })
  .max(256, { error: 'expected at most 256 characters' })
  .regex(/^[^\u0000-\u001f\u007f]*$/, { error: 'expected no control characters' });

const sha256 = z.string({ error: 'expected a string' }).regex(/^[0-9a-f]{64}$/, {
  error: 'expected 64 lowercase hex characters (the "entry" printed by `hookwarden serve token`)',
});

const tenantEntry = z.strictObject({
  sha256,
  tenant: z.string({ error: 'expected a tenant id' }).superRefine((id, ctx) => {
    const problem = tenantIdProblem(id);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem.replace(/, got .*$/s, '') });
  }),
  note: note.optional(),
});

const adminEntry = z.strictObject({
  sha256,
  admin: z.literal(true, { error: 'expected true (omit "admin" for a tenant token)' }),
  note: note.optional(),
});

const fileShape = z.strictObject({
  tokens: z
    .array(z.unknown(), { error: 'expected an array of token entries' })
    .min(1, { error: 'expected at least one entry (`hookwarden serve token --tenant <id>` makes one)' }),
});

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** One entry's problems, each with its JSON path. */
function checkEntry(file: string, i: number, v: unknown): TokenEntry | string[] {
  const at = `${file}: tokens[${i}]`;
  if (!isObject(v))
    return [`${at}: expected {"sha256", "tenant"} or {"sha256", "admin": true}, got ${renderValue(v)}`];
  if ('admin' in v && 'tenant' in v) return [`${at}: an entry is a tenant's or admin, not both`];
  if (!('admin' in v) && !('tenant' in v)) return [`${at}: expected "tenant": "<id>" or "admin": true`];
  const parsed = ('admin' in v ? adminEntry : tenantEntry).safeParse(v);
  if (parsed.success) return parsed.data as TokenEntry;
  return parsed.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys')
      return `${at}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}; an entry holds "sha256", "tenant" or "admin", and "note"`;
    const key = String(issue.path[0]);
    return `${at}.${key}: ${issue.message}, got ${renderValue(v[key])}`;
  });
}

function readOwnedFile(path: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new AuthFileError(path, [
      `${path}: ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code})`}`,
    ]);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new AuthFileError(path, [`${path}: not a regular file`]);
    if ((st.mode & 0o022) !== 0) {
      const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
      throw new AuthFileError(path, [
        `${path}: its group or others may write it (mode ${mode}), so they could add a token; fix: chmod go-w ${path}`,
      ]);
    }
    const uid = process.getuid?.();
    if (uid !== undefined && st.uid !== 0 && st.uid !== uid)
      throw new AuthFileError(path, [
        `${path}: belongs to uid ${st.uid}, not to root or the server's user (uid ${uid}); fix: chown`,
      ]);
    if (st.size > MAX_AUTH_FILE_BYTES)
      throw new AuthFileError(path, [`${path}: ${st.size} bytes, more than an auth file can be`]);
    // The file that was checked (the descriptor), not whatever the path names by now.
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Reads and checks an auth file; throws an AuthFileError naming every problem. */
export function readAuthFile(path: string): TokenEntry[] {
  const json = parseConfigText(readOwnedFile(path).toString('utf8'), { comments: false });
  if (!json.ok) throw new AuthFileError(path, [`${path}: ${json.message}`]);
  if (json.duplicates.length > 0)
    throw new AuthFileError(
      path,
      json.duplicates.map((d) => duplicateProblem(path, d)),
    );
  const shape = fileShape.safeParse(json.value);
  if (!shape.success) {
    const problems = shape.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `${path}: unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}; an auth file is {"tokens": [entry…]}`
        : describeIssues(path, new z.ZodError([issue]), json.value)[0]!,
    );
    throw new AuthFileError(path, problems);
  }
  const entries: TokenEntry[] = [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  for (const [i, raw] of shape.data.tokens.entries()) {
    const e = checkEntry(path, i, raw);
    if (Array.isArray(e)) {
      problems.push(...e);
      continue;
    }
    const first = seen.get(e.sha256);
    if (first !== undefined)
      problems.push(
        `${path}: tokens[${i}].sha256: the same token as tokens[${first}], got ${renderValue(e.sha256)}`,
      );
    else seen.set(e.sha256, i);
    entries.push(e);
  }
  if (problems.length > 0) throw new AuthFileError(path, problems);
  return entries;
}
