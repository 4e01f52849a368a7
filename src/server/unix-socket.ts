// `hookwarden serve --socket <path>`: the rules of the Unix socket, for the server that listens on it
// and for the clients that trust its answers (the Claude Code adapter). A Unix socket carries no
// token: who may connect is decided by the file system. So the socket lives in a directory that only
// its owner can write (nobody else can put a socket of their own in its place, or remove it), the
// socket itself is mode 0600, and a client talks only to a socket owned by its own user in such a
// directory. Dependency-free (node: modules only): the adapter's fast path loads it.
import { chmodSync, lstatSync, realpathSync, statSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname, resolve } from 'node:path';

/** Longest socket path Linux accepts (sun_path is 108 bytes with its NUL). */
const MAX_PATH_BYTES = 107;

const uid = () => process.getuid?.() ?? -1;

/** Why `dir` is not a directory only this user can write, or undefined when it is. */
function socketDirProblem(dir: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch (err) {
    return `its directory ${dir} cannot be read (${(err as NodeJS.ErrnoException).code})`;
  }
  const st = statSync(real);
  if (!st.isDirectory()) return `${dir} is not a directory`;
  if (st.uid !== uid())
    return `its directory ${real} belongs to user ${st.uid}, not to this user (${uid()}): its owner could replace the socket`;
  if ((st.mode & 0o022) !== 0)
    return `its directory ${real} is writable by others (mode ${(st.mode & 0o777).toString(8)}): they could replace the socket; use a directory only you can write, such as $XDG_RUNTIME_DIR or one made with mkdir -m 700`;
  return undefined;
}

/** Why a client must not trust the socket at `path`, or undefined when it may. */
export function socketTrustProblem(path: string): string | undefined {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch (err) {
    return `${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such socket (is `hookwarden serve --socket` running?)' : `cannot be read (${(err as NodeJS.ErrnoException).code})`}`;
  }
  if (!st.isSocket()) return `${path} is not a socket`;
  if (st.uid !== uid()) return `${path} belongs to user ${st.uid}, not to this user (${uid()})`;
  const dir = socketDirProblem(dirname(path));
  return dir === undefined ? undefined : `${path}: ${dir}`;
}

/** Whether something answers on the socket at `path` (a stale file from a crash does not). */
function answers(path: string): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const s = connect(path);
    s.once('connect', () => {
      s.destroy();
      resolvePromise(true);
    });
    s.once('error', () => resolvePromise(false));
  });
}

/**
 * Checks `path` before the server listens there: absolute, short enough, in a directory only this
 * user can write; a socket left by a server that is gone is removed, a running one or any other
 * file is refused. Returns the absolute path, or throws an Error whose message says what to fix.
 */
export async function prepareSocketPath(path: string): Promise<string> {
  const abs = resolve(path);
  if (Buffer.byteLength(abs) > MAX_PATH_BYTES)
    throw new Error(`${abs} is longer than ${MAX_PATH_BYTES} bytes, the most a Unix socket path may have`);
  const dir = socketDirProblem(dirname(abs));
  if (dir !== undefined) throw new Error(`${abs}: ${dir}`);
  let existing: ReturnType<typeof lstatSync> | undefined;
  try {
    existing = lstatSync(abs);
  } catch {
    return abs; // nothing there
  }
  if (!existing.isSocket())
    throw new Error(`${abs} exists and is not a socket: remove it or choose another path`);
  if (await answers(abs)) throw new Error(`${abs}: another server is listening there`);
  unlinkSync(abs); // left by a server that is gone
  return abs;
}

/** After listening: only the owner may connect. */
export function restrictSocket(path: string): void {
  chmodSync(path, 0o600);
}
