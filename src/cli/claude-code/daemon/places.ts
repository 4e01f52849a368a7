// Where the daemons of a user live (every agent's): their sockets in one directory only the user can
// enter (`$XDG_RUNTIME_DIR/hookwarden`, else `/tmp/hookwarden-<uid>`), mode 0700, owned by the user,
// in a parent nobody else can rename it in; their logs under the user's state directory
// (`$XDG_STATE_HOME/hookwarden/daemon`, else `~/.local/state/…`). hookwarden-client
// (native/client-paths.c) finds the same directory by the same rule and checks it the same way.
// Dependency-free.
import { lstatSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

const uid = () => process.getuid?.() ?? -1;

/** The directory of this user's daemon sockets (not created). */
export function daemonDir(env: Env = process.env): string {
  const run = env.XDG_RUNTIME_DIR;
  if (run !== undefined && isAbsolute(run)) return join(run, 'hookwarden');
  return `/tmp/hookwarden-${uid()}`;
}

/** Where the daemons write their logs (not created). */
export function daemonLogDir(env: Env = process.env): string {
  const state = env.XDG_STATE_HOME;
  const base =
    state !== undefined && isAbsolute(state) ? state : join(env.HOME ?? homedir(), '.local', 'state');
  return join(base, 'hookwarden', 'daemon');
}

/**
 * Why `dir` is not a place for this user's sockets, or undefined when it is: a real directory (no
 * symlink), owned by this user, mode 0700 (nobody else may even look up a name in it), in a parent
 * owned by this user or root that others cannot write, or that is sticky (/tmp: nobody else can
 * rename or remove it there).
 */
export function daemonDirProblem(dir: string): string | undefined {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(dir);
  } catch (err) {
    return `${dir}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : `cannot be read (${(err as NodeJS.ErrnoException).code})`}`;
  }
  if (st.isSymbolicLink() || !st.isDirectory()) return `${dir} is not a directory`;
  if (st.uid !== uid()) return `${dir} belongs to user ${st.uid}, not to this user (${uid()})`;
  if ((st.mode & 0o077) !== 0)
    return `${dir} has mode ${(st.mode & 0o777).toString(8)}; only its owner may use it (700)`;
  let parent: ReturnType<typeof lstatSync>;
  try {
    parent = lstatSync(dirname(dir));
  } catch (err) {
    return `${dirname(dir)} cannot be read (${(err as NodeJS.ErrnoException).code})`;
  }
  if (parent.uid !== uid() && parent.uid !== 0)
    return `${dirname(dir)} belongs to user ${parent.uid}: its owner could replace ${dir}`;
  if ((parent.mode & 0o022) !== 0 && (parent.mode & 0o1000) === 0)
    return `${dirname(dir)} is writable by others and not sticky: they could replace ${dir}`;
  return undefined;
}

/** Creates the socket directory if it is missing (mode 0700); returns why it cannot be used, if so. */
export function ensureDaemonDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
      return `cannot create ${dir} (${(err as NodeJS.ErrnoException).code})`;
  }
  return daemonDirProblem(dir);
}

/**
 * Socket files of daemons are named `hw-<key>.sock` (hookwarden-client derives the key); `cc-` is an
 * earlier version's name (Claude Code's daemons only), still found so that `daemon stop` ends them.
 */
export const SOCKET_NAME = /^(hw|cc)-[0-9a-f]{32}\.sock$/;
