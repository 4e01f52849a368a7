// Finds processes started as hooks (their environment carries HOOK_EVENT), and spawn servers, for
// leak checks.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
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

/**
 * Whether `pid` is ours: below this process, or (with `orphans`) an orphan, whose ancestors hold no
 * Node process (another suite's hooks, in another checkout, sit below that suite's Node).
 */
function isOurs(pid: number, orphans: boolean): boolean {
  let sawNode = false;
  for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; hops++) {
    if (p === process.pid) return true;
    if (p !== pid && commOf(p) === 'node') sawNode = true;
    p = parentOf(p);
  }
  return orphans && !sawNode;
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

/** This checkout's spawn server binary (a server of another checkout is not this suite's). */
const SPAWN_SERVER = fileURLToPath(new URL('../../dist/native/hw-spawn-server', import.meta.url));

/** Running spawn servers of this checkout; with `parent`, only that process's children. */
export function spawnServers(parent?: number): HookProcess[] {
  const out: HookProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/exe`) !== SPAWN_SERVER) continue;
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

/** Waits until no spawn server of this checkout is left (or the timeout passes); returns what is left. */
export async function settleSpawnServers(timeoutMs = 3000, parent?: number): Promise<HookProcess[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = spawnServers(parent);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}
