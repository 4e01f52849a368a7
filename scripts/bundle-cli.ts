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
//
// The Claude Code adapter's fast path (src/cli/claude-code/adapter.js and what it imports
// statically) is ONE chunk: Claude Code starts the adapter once per event, and loading its ~15
// modules as ~15 chunks cost ~10 ms more than one file (bench/README.md, Claude Code adapter). The
// same fast path is bundled a second time as ONE CommonJS file, claude-code.cjs (entry
// adapter-main.js), which bin/hookwarden runs for `claude-code`: it skips the ES module loader's
// set-up (~7 ms on Node 20); its import of full-dispatch.js points at the ES module chunk.
//
// The one-shot dispatch path (full-dispatch.js and what it imports statically, beyond the two
// groups above) is one chunk too, `dispatch-path`: as ~20 chunks it loaded ~20 ms slower (same
// bench). zod stays its own chunk (measured: no faster inside).
import { readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const dist = new URL('../', import.meta.url);
const outDir = fileURLToPath(new URL('cli/bundle/', dist));

/** The modules `entry` imports statically, itself included (relative imports of tsc's output). */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)';/gms))
      visit(resolve(dirname(file), m[1]!));
  };
  visit(entry);
  return seen;
}
const cliFile = (rel: string) => fileURLToPath(new URL(`src/cli/${rel}`, dist));
const loadedByMain = staticClosure(cliFile('main.js'));
const adapterFastPath = new Set(
  [...staticClosure(cliFile('claude-code/adapter.js'))].filter((f) => !loadedByMain.has(f)),
);

const dispatchPath = new Set(
  [...staticClosure(cliFile('claude-code/full-dispatch.js'))].filter(
    (f) => !loadedByMain.has(f) && !adapterFastPath.has(f),
  ),
);

rmSync(outDir, { recursive: true, force: true });
const esm = await build({
  input: fileURLToPath(new URL('src/cli/main.js', dist)),
  platform: 'node',
  // The entry's exports are not used by anyone (it is run): the adapter group may leave them out.
  preserveEntrySignatures: 'allow-extension',
  external: [
    /^piscina(\/|$)/,
    /^quickjs-emscripten-core(\/|$)/,
    /^@jitl\//,
    /^fastify(\/|$)/,
    /^pino(\/|$)/,
    /^prom-client(\/|$)/,
  ],
  logLevel: 'warn',
  // pins.js imports the remote-pack modules lazily (for the library); in the CLI the executor imports
  // them statically anyway, which rolldown reports once the dispatch path is grouped: expected.
  onLog: (level, log, handler) => {
    if (log.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') handler(level, log);
  },
  // Prefer a package's ES module build: a UMD build (jsonc-parser's "main") hides its requires
  // from the bundler.
  resolve: { mainFields: ['module', 'main'] },
  output: {
    dir: outDir,
    format: 'esm',
    entryFileNames: 'main.js',
    chunkFileNames: '[name]-[hash].js',
    codeSplitting: {
      groups: [
        {
          name: 'claude-code-adapter',
          test: (id: string) => adapterFastPath.has(id),
          // Not the modules main.js loads anyway (interrupt.js): --version must not load this chunk.
          includeDependenciesRecursively: false,
        },
        {
          name: 'dispatch-path',
          test: (id: string) => dispatchPath.has(id),
          includeDependenciesRecursively: false,
        },
      ],
    },
    minify: true,
  },
});

// The adapter's CommonJS entry. full-dispatch.js is left out and imported from the ES module chunk
// that holds it (one dispatcher, loaded the way every other command loads it).
const fullDispatch = cliFile('claude-code/full-dispatch.js');
const fullChunk = esm.output.find((c) => c.type === 'chunk' && c.facadeModuleId === fullDispatch);
if (fullChunk === undefined) throw new Error('bundle-cli: no chunk for claude-code/full-dispatch.js');
await build({
  input: cliFile('claude-code/adapter-main.js'),
  platform: 'node',
  external: [fullDispatch],
  logLevel: 'warn',
  output: {
    file: fileURLToPath(new URL('claude-code.cjs', `file://${outDir}`)),
    format: 'cjs',
    paths: { [fullDispatch]: `./${fullChunk.fileName}` },
    minify: true,
  },
});
