// Bundles the CLI (run by `npm run build`, after tsc): dist/src/cli/main.js and everything it imports,
// zod and commander included, into a few files under dist/cli/bundle/ that bin/hookwarden runs.
//
// Why: a one-shot CLI call is mostly Node loading modules. Unbundled, a dispatch resolves, reads
// and compiles ~180 ES modules (ours and zod's) before it does anything; bundled it loads a handful.
// Each command stays its own chunk (the dynamic imports in program.ts), so `--version` does not load
// the dispatcher. The library (package.json "exports") is the plain tsc output: it is not bundled.
//
// Kept outside the bundle: Piscina and QuickJS (loaded only when a JS hook runs; they find their
// own files next to themselves), and the service's fastify, pino and prom-client (`serve` is
// long-lived: its start-up time does not matter, and pino and fastify load files of their own). The output folder is two levels under dist/, like dist/src/<stage>/
// and dist/sandbox/<part>/, so the `new URL('../../…', import.meta.url)` lookups of the QuickJS
// worker file and the exec helper find the same files from the bundle.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const dist = new URL('../', import.meta.url);
const outDir = fileURLToPath(new URL('cli/bundle/', dist));
rmSync(outDir, { recursive: true, force: true });
await build({
  input: fileURLToPath(new URL('src/cli/main.js', dist)),
  platform: 'node',
  external: [
    /^piscina(\/|$)/,
    /^quickjs-emscripten-core(\/|$)/,
    /^@jitl\//,
    /^fastify(\/|$)/,
    /^pino(\/|$)/,
    /^prom-client(\/|$)/,
  ],
  logLevel: 'warn',
  // Prefer a package's ES module build: a UMD build (jsonc-parser's "main") hides its requires
  // from the bundler.
  resolve: { mainFields: ['module', 'main'] },
  output: {
    dir: outDir,
    format: 'esm',
    entryFileNames: 'main.js',
    chunkFileNames: '[name]-[hash].js',
    minify: true,
  },
});
