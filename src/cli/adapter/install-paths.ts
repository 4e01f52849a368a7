// The real path of every file `<agent> install|uninstall` reads or writes, and of every path it
// writes into a hook command, with the symbolic links on the way judged. A repository can ship a
// link (`.github -> ../victim`, `sub/link -> /home/someone`): followed, install would rewrite a file
// elsewhere, and a command naming a path through the link would run whatever the repository later
// points it at. So each folder on the way is looked at, and a link is followed only when it is the
// user's own layout:
//
// - a link in the home directory itself or in ~/.config, of this user or root: a dotfile link
//   (`~/.claude -> ~/dotfiles/claude`), which only the user could have made;
// - a link of root's on the way to the home directory (`/home -> /usr/home`);
// - for a user other than root, a link of root's in a folder only root can write (`/bin -> usr/bin`):
//   the system's layout (for root, every link it checks out is root's: only the rules above);
// - a link the user names with --follow-link <path>.
//
// Any other link is refused with the fix (the real path to give, or the flag). Paths are then
// written as their real paths, so no later change of a link changes what a command runs.
// Dependency-free.
import { lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { UsageError } from '../usage-error.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface LinkPolicy {
  /** Links the user named (--follow-link), absolute as given. */
  readonly follow: readonly string[];
  /** The home directory and ~/.config, whose own links are dotfile links. */
  readonly dotfileDirs: readonly string[];
  /** The home directory as named (a link of root's on the way to it is the system's). */
  readonly home: string;
}

/** The policy for this user: `follow` from --follow-link (resolved against the working directory). */
export function linkPolicy(follow: readonly string[] = [], env: Env = process.env): LinkPolicy {
  const home = env.HOME !== undefined && isAbsolute(env.HOME) ? env.HOME : homedir();
  const config =
    env.XDG_CONFIG_HOME !== undefined && isAbsolute(env.XDG_CONFIG_HOME)
      ? env.XDG_CONFIG_HOME
      : join(home, '.config');
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return {
    follow: follow.map((f) => resolve(f)),
    dotfileDirs: [...new Set([home, real(home), config, real(config)])],
    home,
  };
}

const uid = () => process.getuid?.() ?? -1;

/** Why the link `path` (lstat `st`) may be followed, or undefined when it may not. */
function followedWhy(path: string, st: Stats, policy: LinkPolicy): string | undefined {
  if (policy.follow.includes(path)) return '--follow-link';
  const parent = dirname(path);
  if ((st.uid === uid() || st.uid === 0) && policy.dotfileDirs.includes(parent)) return 'a dotfile link';
  if (st.uid !== 0) return undefined;
  if (policy.home.startsWith(`${path}${sep}`)) return 'on the way to the home directory';
  if (uid() === 0) return undefined;
  try {
    const dir = lstatSync(parent);
    return dir.uid === 0 && (dir.mode & 0o022) === 0 ? "root's, in a folder only root can write" : undefined;
  } catch {
    return undefined;
  }
}

function refusal(link: string, target: string, file: string, what: string): UsageError {
  let real = '';
  try {
    real = ` (${realpathSync(file)})`;
  } catch {
    // not there yet: the user knows where it should be
  }
  return new UsageError(
    `${link} is a symbolic link (to ${target}) on the way to ${file} (${what}): install follows no link it was not told about, since whoever can change the link would decide which file is rewritten and what the hook runs. Give the real path${real}, or, if this link is yours, name it: --follow-link ${link}`,
  );
}

/** Links followed in one walk before giving up (the kernel's own limit is 40). */
const MAX_LINKS = 40;

/**
 * The real path of `file`, walking each folder on the way: a link is followed only as the policy
 * allows (else a UsageError with the fix), one level at a time, so that links inside its target are
 * judged too. The last component is never followed: install writes a regular file there, or
 * creates one (a path that does not exist yet resolves through its folder).
 */
export function realPathOf(file: string, what: string, policy: LinkPolicy): string {
  const given = resolve(file);
  let rest = given.split(sep).filter((p) => p !== '');
  let at: string = sep;
  for (let followed = 0; rest.length > 0; ) {
    const [part, ...more] = rest as [string, ...string[]];
    const next = join(at, part);
    let st: Stats;
    try {
      st = lstatSync(next);
    } catch {
      return join(next, ...more); // not there (yet): nothing more to follow
    }
    if (!st.isSymbolicLink() || more.length === 0) {
      at = next;
      rest = more;
      continue;
    }
    const target = readlinkSync(next);
    if (followedWhy(next, st, policy) === undefined) throw refusal(next, target, given, what);
    if (++followed > MAX_LINKS)
      throw new UsageError(`${given}: too many symbolic links on the way (${what})`);
    // Walked again from the link's target: its own folders are judged the same way.
    rest = [
      ...resolve(at, target)
        .split(sep)
        .filter((p) => p !== ''),
      ...more,
    ];
    at = sep;
  }
  return at;
}
