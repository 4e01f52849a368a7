// Whether stdin carries data to read. Dependency-free: the Claude Code adapter's fast path loads it.
import { fstatSync } from 'node:fs';

/** Whether stdin carries data to read: a pipe, a socket or a regular file (not a TTY, not /dev/null). */
export function stdinHasInput(): boolean {
  try {
    const s = fstatSync(0);
    return s.isFIFO() || s.isSocket() || s.isFile();
  } catch {
    return false; // fd 0 closed
  }
}
