// Builds sandbox/native/hw-exec.c into dist/native/hw-exec (run by `npm run build`). Without a C
// compiler the build says so and hookwarden falls back to prlimit(1) at run time.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../../sandbox/native/hw-exec.c', import.meta.url));
const outDir = fileURLToPath(new URL('../native/', import.meta.url));
const out = `${outDir}hw-exec`;
mkdirSync(outDir, { recursive: true });

const cc = process.env.CC ?? 'cc';
const flags = ['-O2', '-Wall', '-Wextra', '-Werror', '-o', out, src];
// Static when the C library allows it (a static binary starts fastest); dynamic otherwise.
let r = spawnSync(cc, ['-static', ...flags], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
if (r.status !== 0) r = spawnSync(cc, flags, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
if (r.status !== 0) {
  const why = r.error !== undefined ? r.error.message : r.stderr.trim().split('\n')[0];
  process.stderr.write(
    `hookwarden: note: could not build the exec helper (${why}); command hooks will use prlimit(1)\n`,
  );
}
