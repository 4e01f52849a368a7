// Whether the host's `nobody` can enter a directory (a runAs "nobody" hook's working directory): every
// directory on the way must let it search. A private checkout (a clone under /root, under any 0700
// directory) does not, and the hook would fail with a bare "Permission denied" from chdir.
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { NOBODY } from './process-profile.js';

/** The first directory on the way to `dir` that nobody cannot enter, or undefined when it can. */
export function closedToNobody(dir: string): { dir: string; mode: number } | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(d);
    } catch {
      return undefined; // the spawn says what is missing
    }
    const bits = st.uid === NOBODY ? 0o100 : st.gid === NOBODY ? 0o010 : 0o001;
    if ((st.mode & bits) === 0) return { dir: d, mode: st.mode & 0o7777 };
    if (d === dirname(d)) return undefined;
  }
}
