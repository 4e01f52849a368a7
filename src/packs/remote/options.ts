// Options of packs pinned by URL: where fetched bundles are cached and how large a bundle may be.
// Validated once (the `remotePacks` executor option) into a frozen, fully-defaulted form.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';

/** The defaults of {@link RemotePackOptions} (the cache directory aside: see `defaultPackCacheDir`). */
export const REMOTE_PACK_DEFAULTS = Object.freeze({
  /** Largest bundle downloaded (the .tar.gz as served): 16 MiB. */
  maxBundleBytes: 16 * 1024 * 1024,
  /** Largest unpacked archive (the tar stream, headers included): 64 MiB. A gzip bomb stops here. */
  maxUnpackedBytes: 64 * 1024 * 1024,
  /** Most entries (files and directories) in a bundle. */
  maxFiles: 4096,
  /** Deadline of one download, redirects included. */
  timeoutMs: 30_000,
  /** Default `pollSeconds` of a URL pin. */
  pollSeconds: 300,
});

export interface RemotePackOptions {
  /**
   * Where fetched bundles are cached (made mode 0700; refused if others can read or write it).
   * Default: `$XDG_CACHE_HOME/hookwarden/packs`, else `~/.cache/hookwarden/packs`.
   */
  cacheDir?: string;
  /** Largest bundle downloaded, in bytes. Default 16 MiB. */
  maxBundleBytes?: number;
  /** Largest unpacked archive (the tar stream), in bytes. Default 64 MiB. */
  maxUnpackedBytes?: number;
  /** Most entries (files and directories) in a bundle. Default 4096. */
  maxFiles?: number;
  /** Deadline of one download, in milliseconds. Default 30 000. */
  timeoutMs?: number;
  /**
   * `always` (default): every load (createExecutor, reload()) asks the server, with If-None-Match.
   * `when-stale`: a load uses the cached bundle without asking when it was checked less than the
   * pin's `pollSeconds` ago, by any process (a one-shot CLI dispatch uses this).
   */
  revalidate?: 'always' | 'when-stale';
}

export type ResolvedRemoteOptions = Readonly<Required<RemotePackOptions>>;

const positive = (max: number) =>
  z
    .number({ error: 'expected a positive integer' })
    .int({ error: 'expected a positive integer' })
    .positive({ error: 'expected a positive integer' })
    .max(max, { error: `expected at most ${max}` });

export const remotePackOptionsSchema = z.strictObject(
  {
    cacheDir: z
      .string({ error: 'expected a directory path' })
      .min(1, { error: 'expected a directory path' })
      .optional(),
    maxBundleBytes: positive(1024 * 1024 * 1024).optional(),
    maxUnpackedBytes: positive(1024 * 1024 * 1024).optional(),
    maxFiles: positive(1_000_000).optional(),
    timeoutMs: positive(600_000).optional(),
    revalidate: z.enum(['always', 'when-stale'], { error: 'expected "always" or "when-stale"' }).optional(),
  },
  {
    error: 'expected an object {cacheDir, maxBundleBytes, maxUnpackedBytes, maxFiles, timeoutMs, revalidate}',
  },
);

/** `$XDG_CACHE_HOME/hookwarden/packs` (an absolute XDG_CACHE_HOME only), else `~/.cache/hookwarden/packs`. */
export function defaultPackCacheDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  // $HOME of `env` (homedir() reads this process's): a daemon resolves it for its caller.
  const home = env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, '.cache'), 'hookwarden', 'packs');
}

/** Fills the defaults of validated options. */
export function resolveRemoteOptions(parsed: RemotePackOptions = {}): ResolvedRemoteOptions {
  return Object.freeze({
    cacheDir: resolve(parsed.cacheDir ?? defaultPackCacheDir()),
    maxBundleBytes: parsed.maxBundleBytes ?? REMOTE_PACK_DEFAULTS.maxBundleBytes,
    maxUnpackedBytes: parsed.maxUnpackedBytes ?? REMOTE_PACK_DEFAULTS.maxUnpackedBytes,
    maxFiles: parsed.maxFiles ?? REMOTE_PACK_DEFAULTS.maxFiles,
    timeoutMs: parsed.timeoutMs ?? REMOTE_PACK_DEFAULTS.timeoutMs,
    revalidate: parsed.revalidate ?? 'always',
  });
}
