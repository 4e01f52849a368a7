// `npm run build`: builds hookwarden into a fresh folder and swaps it in with one rename, so that a
// hook command running at any moment during a build — or a daemon, a serve, a test — sees either the
// whole old build or the whole new one, never a half-built tree (docs/development.md, "Building").
//
//   .dist-<id>/        a build: tsc's output, the native helpers, the client, the bundles
//   dist -> .dist-<id> the build in force: a relative symbolic link, replaced by rename(2)
//
// Node resolves a module's real path, so a process keeps loading the build it started in (its lazy
// chunks, its worker files, its helpers) even after the link moves on. A build that fails leaves the
// one in force alone. Builds retired more than RETIRED_KEPT_MS ago are removed, unless a long-lived
// process (a daemon, `serve`) holds one (src/cli/build-hold.ts writes `<build>/.holders/<pid>`).
// Plain JavaScript: it runs before anything is compiled. Each build is a child of the checkout, like
// dist/ was, so every `../../` a compiled script uses to find the sources means what it meant.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const PREFIX = '.dist-';
/** A build out of force is kept this long for the processes that still run from it. */
const RETIRED_KEPT_MS = 15 * 60 * 1000;
/** The steps after tsc, each a compiled script of the new build. */
const STEPS = ['write-schema', 'build-native', 'build-client', 'bundle-cli', 'bundle-js-worker'];

const id = `${new Date().toISOString().replace(/[-:.TZ]/g, '')}-${randomBytes(3).toString('hex')}`;
const name = `${PREFIX}${id}`;
const out = join(root, name);

function run(what, file, args) {
  const r = spawnSync(file, args, { cwd: root, stdio: 'inherit' });
  if (r.status === 0) return;
  rmSync(out, { recursive: true, force: true });
  process.stderr.write(`hookwarden: build: ${what} failed; the build in force (dist/) is unchanged\n`);
  process.exit(r.status ?? 1);
}

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

/** Marks the build `dir` retired (now), and removes retired builds nothing holds past their time. */
function prune(current, retiring) {
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

/** Puts the new build in force: a new link renamed over `dist` (one step for every reader). */
function swap() {
  const dist = join(root, 'dist');
  let retiring;
  let before;
  try {
    before = lstatSync(dist);
  } catch {
    before = undefined;
  }
  if (before?.isSymbolicLink()) retiring = readlinkSync(dist);
  else if (before !== undefined) {
    // A dist/ folder of an earlier version of this script (or a pack): moved aside once. Between the
    // two renames dist/ is missing for a moment; hookwarden-client waits that out.
    retiring = `${PREFIX}${id}-earlier`;
    renameSync(dist, join(root, retiring));
  }
  const link = join(root, `.hookwarden-dist-link-${id}`);
  symlinkSync(name, link);
  renameSync(link, dist);
  if (retiring !== undefined && statSync(join(root, retiring), { throwIfNoEntry: false })?.isDirectory())
    prune(name, retiring);
  else prune(name, undefined);
}

mkdirSync(out);
writeFileSync(join(out, 'build.json'), `${JSON.stringify({ id, builtAt: new Date().toISOString() })}\n`);
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
run('tsc', process.execPath, [tsc, '-p', 'tsconfig.json', '--outDir', name]);
for (const step of STEPS) run(step, process.execPath, [join(out, 'scripts', `${step}.js`)]);
swap();
