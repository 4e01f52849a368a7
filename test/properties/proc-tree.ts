// The processes below a process, read from /proc (invariant 5's property reads every one).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A /proc file, or undefined when it is gone or unreadable. */
export const read = (path: string) => {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
};

/** The process and every process below it (host pids, whatever namespace they are in). */
export function tree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    // Every thread's children: a process started from a worker thread is a child of that thread.
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${out[i]}/task`);
    } catch {}
    for (const t of tasks) {
      const children = read(`/proc/${out[i]}/task/${t}/children`);
      for (const c of children?.trim().split(/\s+/) ?? []) if (c !== '') out.push(Number(c));
    }
  }
  return out;
}

export const exeOf = (pid: number) => {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return '';
  }
};
