// The swap of scripts/build.mjs: a new build `.dist-<id>` of the checkout `root` put in force by one
// rename of a new `dist` link over the old one (every reader sees the old build or the new, never a
// half of either), and builds retired more than RETIRED_KEPT_MS ago removed, unless a long-lived
// process (a daemon, `serve`) holds one (src/cli/build-hold.ts writes `<build>/.holders/<pid>`).
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

export const PREFIX = '.dist-';
/** A build out of force is kept this long for the processes that still run from it. */
const RETIRED_KEPT_MS = 15 * 60 * 1000;

/** Whether a process that holds a build still runs (its pid, with the start time it wrote). */
function alive(holder) {
  const [pid, started] = holder.split(':');
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] === started;
  } catch {
    return false;
  }
}

/** Marks the build `retiring` retired (now), and removes retired builds nothing holds past their time. */
function prune(root, current, retiring) {
  if (retiring !== undefined) writeFileSync(join(root, retiring, '.retired'), `${Date.now()}\n`);
  for (const entry of readdirSync(root)) {
    if (!entry.startsWith(PREFIX) || entry === current) continue;
    const dir = join(root, entry);
    const marker = join(dir, '.retired');
    if (!existsSync(marker)) {
      writeFileSync(marker, `${Date.now()}\n`); // an old build found here: its time starts now
      continue;
    }
    if (Date.now() - Number(readFileSync(marker, 'utf8')) < RETIRED_KEPT_MS) continue;
    const holders = join(dir, '.holders');
    if (
      existsSync(holders) &&
      readdirSync(holders).some((h) => alive(readFileSync(join(holders, h), 'utf8')))
    )
      continue;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Puts the build `name` of `root` in force: a new link renamed over `dist` (one step for every reader). */
export function swapIn(root, name) {
  const id = randomBytes(6).toString('hex');
  const dist = join(root, 'dist');
  let retiring;
  let before;
  try {
    before = lstatSync(dist);
  } catch {
    before = undefined;
  }
  if (before?.isSymbolicLink()) retiring = readlinkSync(dist) === name ? undefined : readlinkSync(dist);
  else if (before !== undefined) {
    // A dist/ folder of an earlier version of this script (or a pack): moved aside once. Between the
    // two renames dist/ is missing for a moment; hookwarden-client waits that out.
    retiring = `${name}-earlier-${id}`;
    renameSync(dist, join(root, retiring));
  }
  const link = join(root, `.hookwarden-dist-link-${id}`);
  symlinkSync(name, link);
  renameSync(link, dist);
  if (retiring !== undefined && statSync(join(root, retiring), { throwIfNoEntry: false })?.isDirectory())
    prune(root, name, retiring);
  else prune(root, name, undefined);
}
