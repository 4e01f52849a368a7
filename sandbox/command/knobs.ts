// hookwarden's own knobs in the environment (docs/security.md, "hookwarden's knobs"). The
// environment is not the operator's alone: a repository's `.claude/settings.json` `env` block sets
// variables for the hooks Claude Code starts, hookwarden's adapter among them. So a knob can choose
// between sandboxes that contain as much (or turn off what no policy requires, visibly: every hook
// record and `hookwarden doctor` name the knobs in use), and a program path from one is used only
// if it is absolute and nobody but root or hookwarden's own user can change what it points at.
import { realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/** The knobs that change how command hooks are sandboxed, read when an executor starts. */
export const SANDBOX_KNOBS = [
  'HOOKWARDEN_SPAWN_SERVER',
  'HOOKWARDEN_CONTAINMENT',
  'HOOKWARDEN_NAMESPACE',
  'HOOKWARDEN_BWRAP',
] as const;

/** The sandbox knobs set here, as `NAME=value`, in SANDBOX_KNOBS order. */
export function knobsInUse(env: NodeJS.ProcessEnv = process.env): string[] {
  return SANDBOX_KNOBS.filter((k) => env[k] !== undefined && env[k] !== '').map((k) => `${k}=${env[k]}`);
}

/**
 * Why a program path (from a knob) is not to be trusted, or undefined when it is: absolute, a file
 * owned by root or this process's user that no one else may write, in directories owned the same
 * way that no one else may write either (unless sticky, as /tmp is: then no one else may replace
 * what root or this user put there).
 */
export function untrustedProgram(given: string): string | undefined {
  if (!given.startsWith('/')) return `${JSON.stringify(given)} is not an absolute path`;
  const uid = process.getuid?.() ?? 0;
  const owners = new Set([0, uid]);
  let st: ReturnType<typeof statSync>;
  let path: string;
  try {
    // What runs is the file a symlink leads to: its own directories are the ones that matter.
    path = realpathSync(given);
    st = statSync(path);
  } catch (err) {
    return `${given}: ${(err as NodeJS.ErrnoException).code ?? 'cannot be read'}`;
  }
  if (!st.isFile()) return `${path} is not a file`;
  if (!owners.has(st.uid)) return `${path} belongs to uid ${st.uid}, not to root or uid ${uid}`;
  if ((st.mode & 0o022) !== 0) return `${path} is writable by others (mode ${(st.mode & 0o777).toString(8)})`;
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const d = statSync(dir);
    if (!owners.has(d.uid)) return `${dir} belongs to uid ${d.uid}, not to root or uid ${uid}`;
    if ((d.mode & 0o022) !== 0 && (d.mode & 0o1000) === 0)
      return `${dir} is writable by others (mode ${(d.mode & 0o777).toString(8)})`;
    if (dir === '/') return undefined;
  }
}
