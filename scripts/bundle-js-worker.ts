// Bundles the QuickJS lane's worker (run by `npm run build`, after tsc): dist/sandbox/js/worker.js and
// the modules it imports into one file, dist/sandbox/js/bundle/worker.js, which the lane starts.
//
// Why: every worker thread loads its module graph itself (a new thread shares no module cache), and
// a cold start waits for it: measured in the same process, a worker was ready in ~62 ms bundled
// against ~99 ms from the ~20 separate files (p50 of 15, interleaved). QuickJS stays outside the
// bundle (it finds its .wasm next to itself). The unbundled worker still works (the lane falls back
// to it, e.g. before this step has run).
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const dist = new URL('../', import.meta.url);
const outDir = fileURLToPath(new URL('sandbox/js/bundle/', dist));
rmSync(outDir, { recursive: true, force: true });
await build({
  input: fileURLToPath(new URL('sandbox/js/worker.js', dist)),
  platform: 'node',
  external: [/^quickjs-emscripten-core(\/|$)/, /^@jitl\//],
  logLevel: 'warn',
  output: { dir: outDir, format: 'esm', entryFileNames: 'worker.js', minify: true },
});
