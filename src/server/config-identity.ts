// Which configuration a dispatch runs under, as a string: the config and policy files (absolute, in
// order, with their scope) and the sandbox root. A client that forwards a dispatch to a running
// `hookwarden serve --socket` (the Claude Code adapter) sends its own in a header; the server answers
// only when it is the server's, so an adapter never gets the verdict of other hooks, or of hooks run
// in another project.
//
// Names are not enough: the server answers with what it loaded, the client would run what is on disk
// now. So the client also sends the digest of what the server's load read (CONFIG_READS_PATH lists
// it; the client digests each path itself), and the server answers only when it is the digest of its
// own load: an edit is seen at the very next call, whether or not the server has reloaded yet.
// Dependency-free.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';

/** The request header that carries it (URI-encoded JSON). */
export const CONFIG_IDENTITY_HEADER = 'x-hookwarden-config';

/** The request header that carries the digest of what the server's load read, as the client sees it now. */
export const CONFIG_READS_HEADER = 'x-hookwarden-reads';

/** The socket route that lists what the server's load read: `{"reads": [{kind, path}…]}`. */
export const CONFIG_READS_PATH = '/v1/config-reads';

/** One digest for a list of reads and their digests (in order). */
export function readsDigest(reads: readonly { kind: string; path: string; digest: string }[]): string {
  const hash = createHash('sha256');
  for (const r of reads) hash.update(`${r.kind}\0${r.path}\0${r.digest}\n`);
  return hash.digest('hex');
}

type Source = string | { path?: unknown; scope?: unknown } | Record<string, unknown>;

/**
 * The identity of a set of sources; undefined when one is not a file (an inline config object has
 * no name a client could give).
 */
export function configIdentity(
  config: readonly Source[],
  policy: readonly Source[],
  root: string | undefined,
  cwd = process.cwd(),
): string | undefined {
  const file = (s: Source, scope: string): [string, string] | undefined => {
    if (typeof s === 'string') return [scope, resolve(cwd, s)];
    if (typeof s.path !== 'string') return undefined;
    return [typeof s.scope === 'string' ? s.scope : scope, resolve(cwd, s.path)];
  };
  const files = [...policy.map((s) => file(s, 'policy')), ...config.map((s) => file(s, 'project'))];
  if (files.some((f) => f === undefined)) return undefined;
  return encodeURIComponent(JSON.stringify({ files, root: resolve(cwd, root ?? '.') }));
}
