// The daemon's own code, as reads a client checks on every call (config/read-log.ts, kind `stat`):
// the directory its module was loaded from (the CLI bundle) and each file in it. An upgrade or a
// rebuild of hookwarden changes them; the call then runs in process with the new code, and the
// daemon, told so, exits (the next call starts one with the new code).
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dirDigest, type LoadRead, statDigest } from '../../../config/read-log.js';

export function codeReads(): LoadRead[] {
  const dir = dirname(fileURLToPath(import.meta.url));
  const names = readdirSync(dir);
  const reads: LoadRead[] = [{ kind: 'dir', path: dir, digest: dirDigest(names) }];
  for (const name of names.sort()) {
    const path = join(dir, name);
    const st = statSync(path, { bigint: true });
    if (st.isFile()) reads.push({ kind: 'stat', path, digest: statDigest(st) });
  }
  return reads;
}
