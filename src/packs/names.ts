// The fixed file names of a pack directory.

export const MANIFEST_FILE = 'hookpack.json';
export const LOCK_FILE = 'hookpack.lock.json';
export const SIG_FILE = 'hookpack.sig';

/** Files at the top of a pack that describe it rather than belong to it: outside the digest. */
export const NOT_CONTENT: ReadonlySet<string> = new Set([LOCK_FILE, SIG_FILE]);
