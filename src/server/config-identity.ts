// Which configuration a dispatch runs under, as a string: the config and policy files (absolute, in
// order, with their scope) and the sandbox root. A client that forwards a dispatch to a running
// `hookwarden serve --socket` (the Claude Code adapter) sends its own in a header; the server answers
// only when it is the server's, so an adapter never gets the verdict of other hooks, or of hooks run
// in another project. Dependency-free.
import { resolve } from 'node:path';

/** The request header that carries it (URI-encoded JSON). */
export const CONFIG_IDENTITY_HEADER = 'x-hookwarden-config';

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
