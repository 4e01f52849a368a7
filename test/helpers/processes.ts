// Finds processes started as hooks (their environment carries HOOK_EVENT), for leak checks.
import { readdirSync, readFileSync } from 'node:fs';

export interface HookProcess {
  pid: number;
  cmdline: string;
}

export function hookProcesses(): HookProcess[] {
  const out: HookProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const env = readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (!env.split('\0').some((kv) => kv.startsWith('HOOK_EVENT='))) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      if (/^\d+ \(.*\) Z /.test(stat)) continue; // a zombie holds nothing
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ').trim();
      out.push({ pid: Number(entry), cmdline });
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** Waits until no hook process is left (or the timeout passes) and returns what is left. */
export async function settleHookProcesses(timeoutMs = 3000): Promise<HookProcess[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = hookProcesses();
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Hook processes whose environment holds `name=value` (a marker set by the test). */
export function processesWithEnv(name: string, value: string): HookProcess[] {
  return hookProcesses().filter((p) => {
    try {
      return readFileSync(`/proc/${p.pid}/environ`, 'latin1').split('\0').includes(`${name}=${value}`);
    } catch {
      return false;
    }
  });
}
