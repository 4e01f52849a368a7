// The build a process runs from (scripts/build.mjs: each build is a folder `.dist-<id>` of the
// checkout, and `dist` links to the one in force). A long-lived process — a daemon, `serve` — holds
// its build, so that a later build does not remove it from under it (`<build>/.holders/<pid>`, with
// the process's start time against pid reuse); a daemon also asks whether its build is still the
// one in force, and exits when it is not (the next call starts one from the new build).
// Dependency-free.
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The build folder this module was loaded from (holding build.json), or undefined (sources, a test). */
function buildDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++, dir = dirname(dir)) if (existsSync(join(dir, 'build.json'))) return dir;
  return undefined;
}

/** `<checkout>/dist/build.json`, through the link: the build in force (the daemon's code reads it). */
export function buildInForce(): string | undefined {
  const build = buildDir();
  return build === undefined ? undefined : join(dirname(build), 'dist', 'build.json');
}

/** Whether this process's build is no longer the one `dist` names (rebuilt, or removed). */
export function buildRetired(): boolean {
  const build = buildDir();
  if (build === undefined || !basename(build).startsWith('.dist-')) return false;
  try {
    return realpathSync(join(dirname(build), 'dist')) !== realpathSync(build);
  } catch {
    return true;
  }
}

/** Holds this process's build until it exits (best effort: a read-only installation has no builds to prune). */
export function holdBuild(): void {
  const build = buildDir();
  if (build === undefined) return;
  try {
    const stat = readFileSync('/proc/self/stat', 'latin1');
    const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const holders = join(build, '.holders');
    mkdirSync(holders, { recursive: true });
    const file = join(holders, String(process.pid));
    writeFileSync(file, `${process.pid}:${started}`);
    process.on('exit', () => rmSync(file, { force: true }));
  } catch {
    // not ours to write: nothing prunes it either
  }
}
