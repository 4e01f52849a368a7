// The daemon's own code, as reads a client checks on every call (config/read-log.ts): the directory
// its module was loaded from (the CLI bundle), whose chunk names carry a hash of their content, and
// the `stat` of each file whose name does not (main.js, claude-code.cjs). An upgrade or a rebuild of
// hookwarden changes them; the call then runs in process with the new code, and the daemon, told
// so, exits (the next call starts one with the new code). With builds swapped in by a link
// (scripts/build.mjs), the daemon's own folder never changes: the build in force (`dist/build.json`
// through the link) is read too, and bin/hookwarden (an installation removed or reinstalled).
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { digestNow, dirDigest, type LoadRead, statDigest } from '../../../config/read-log.js';
import { buildInForce } from '../../build-hold.js';

/** A bundler's chunk name: `<name>-<8 characters of its content hash>.<ext>`. */
const HASHED = /-[A-Za-z0-9_-]{8}\.c?js$/;

export function codeReads(): LoadRead[] {
  const dir = dirname(fileURLToPath(import.meta.url));
  const names = readdirSync(dir);
  const reads: LoadRead[] = [{ kind: 'dir', path: dir, digest: dirDigest(names) }];
  for (const name of names.sort()) {
    const path = join(dir, name);
    const st = statSync(path, { bigint: true });
    if (st.isFile() && !HASHED.test(name)) reads.push({ kind: 'stat', path, digest: statDigest(st) });
  }
  const inForce = buildInForce();
  if (inForce !== undefined) reads.push({ kind: 'file', path: inForce, digest: digestNow('file', inForce) });
  // bin/hookwarden, which the hook command names: removed or replaced, hookwarden is gone or another.
  const bin = process.argv[1];
  if (bin !== undefined && bin !== '')
    reads.push({ kind: 'stat', path: bin, digest: digestNow('stat', bin) });
  return reads;
}
