// `npm run build`: builds hookwarden into a fresh folder and swaps it in with one rename, so that a
// hook command running at any moment during a build — or a daemon, a serve, a test — sees either the
// whole old build or the whole new one, never a half-built tree (docs/development.md, "Building").
//
//   .dist-<id>/        a build: tsc's output, the native helpers, the client, the bundles
//   dist -> .dist-<id> the build in force: a relative symbolic link, replaced by rename(2)
//
// Node resolves a module's real path, so a process keeps loading the build it started in (its lazy
// chunks, its worker files, its helpers) even after the link moves on. A build that fails leaves the
// one in force alone. The swap, and the removal of retired builds, are build-swap.mjs's.
// Plain JavaScript: it runs before anything is compiled. Each build is a child of the checkout, like
// dist/ was, so every `../../` a compiled script uses to find the sources means what it meant.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PREFIX, swapIn } from './build-swap.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
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

mkdirSync(out);
writeFileSync(join(out, 'build.json'), `${JSON.stringify({ id, builtAt: new Date().toISOString() })}\n`);
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
run('tsc', process.execPath, [tsc, '-p', 'tsconfig.json', '--outDir', name]);
for (const step of STEPS) run(step, process.execPath, [join(out, 'scripts', `${step}.js`)]);
swapIn(root, name);
