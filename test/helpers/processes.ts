// Finds processes started as hooks (their environment carries HOOK_EVENT), and spawn servers, for
// leak checks: only the suite's own, never those of the user's own daemon of the same checkout, or of
// another checkout's suite.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface HookProcess {
  pid: number;
  cmdline: string;
}

/** The parent pid of `pid` (undefined when it is gone). */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

const commOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'latin1').trim();
  } catch {
    return '';
  }
};

const cmdlineOf = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1');
  } catch {
    return '';
  }
};

/** The start time of `pid` in clock ticks since boot (0 when it is gone). */
function startOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return 0;
  }
}

/**
 * Whether `pid` is ours: below this process; or below a daemon the suite started (its command line
 * names the suite's socket directory, the suite's XDG_RUNTIME_DIR set by global-setup.ts); or (with
 * `orphans`) an orphan started after this process, whose ancestors hold no Node process (another
 * suite's hooks, the user's own daemon's, sit below that Node).
 */
function isOurs(pid: number, orphans: boolean): boolean {
  const suite = process.env.XDG_RUNTIME_DIR;
  let sawNode = false;
  for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; hops++) {
    if (p === process.pid) return true;
    if (p !== pid && commOf(p) === 'node') {
      if (suite !== undefined && suite !== '' && cmdlineOf(p).includes(`${suite}/`)) return true;
      sawNode = true;
    }
    p = parentOf(p);
  }
  return orphans && !sawNode && startOf(pid) >= startOf(process.pid);
}

/**
 * Hook processes: `'mine'` (default) those this test process started, still below it (a per-test
 * check must not see another file's hooks, which run at the same time); `'suite'` those below this
 * process plus orphans (the global teardown, in vitest's main process, once every file is done);
 * `'all'` every one on the machine (for a marker the test set itself).
 */
export function hookProcesses(which: 'mine' | 'suite' | 'all' = 'mine'): HookProcess[] {
  const out: HookProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const env = readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (!env.split('\0').some((kv) => kv.startsWith('HOOK_EVENT='))) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      if (/^\d+ \(.*\) Z /.test(stat)) continue; // a zombie holds nothing
      if (which !== 'all' && !isOurs(Number(entry), which === 'suite')) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ').trim();
      out.push({ pid: Number(entry), cmdline });
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** Waits until no hook process is left (or the timeout passes) and returns what is left. */
export async function settleHookProcesses(
  timeoutMs = 3000,
  which: 'mine' | 'suite' = 'mine',
): Promise<HookProcess[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = hookProcesses(which);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Hook processes whose environment holds `name=value` (a marker set by the test). */
export function processesWithEnv(name: string, value: string): HookProcess[] {
  return hookProcesses('all').filter((p) => {
    try {
      return readFileSync(`/proc/${p.pid}/environ`, 'latin1').split('\0').includes(`${name}=${value}`);
    } catch {
      return false;
    }
  });
}

/** Waits until no process carries `name=value` (or the timeout passes) and returns what is left. */
export async function settleMarked(name: string, value: string, timeoutMs = 5000): Promise<HookProcess[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = processesWithEnv(name, value);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** This checkout (a server of another checkout is not this suite's). */
const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');

/**
 * Whether `exe` is a spawn server of this checkout: of its build in force or an older one (a
 * process keeps running the build it started from: scripts/build.mjs).
 */
function isSpawnServer(exe: string): boolean {
  const build = dirname(dirname(exe));
  return (
    basename(exe) === 'hw-spawn-server' &&
    dirname(build) === CHECKOUT &&
    (basename(build) === 'dist' || basename(build).startsWith('.dist-'))
  );
}

/**
 * Running spawn servers of this checkout; with `parent`, only that process's children; with `suite`,
 * only the suite's own (isOurs: never the user's own daemon's).
 */
export function spawnServers(parent?: number, suite = false): HookProcess[] {
  const out: HookProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!isSpawnServer(readlinkSync(`/proc/${entry}/exe`))) continue;
      if (suite && !isOurs(Number(entry), true)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const fields = /^\d+ \(.*\) (\S) (\d+) /.exec(stat);
      if (fields === null || fields[1] === 'Z') continue;
      if (parent !== undefined && Number(fields[2]) !== parent) continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ').trim();
      out.push({ pid: Number(entry), cmdline });
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/**
 * Waits until no spawn server of this checkout is left (or the timeout passes); returns what is left.
 * `parent`: that process's only; else the suite's own (never the user's own daemon's).
 */
export async function settleSpawnServers(timeoutMs = 3000, parent?: number): Promise<HookProcess[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = spawnServers(parent, parent === undefined);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}
