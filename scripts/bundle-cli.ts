// Bundles the CLI (run by `npm run build`, after tsc): dist/src/cli/main.js and everything it imports,
// zod and commander included, into a few files under dist/cli/bundle/ that bin/hookwarden runs.
//
// Why: a one-shot CLI call is mostly Node loading modules. Unbundled, a dispatch resolves, reads
// and compiles ~180 ES modules (ours and zod's) before it does anything; bundled it loads a handful.
// Each command stays its own chunk (the dynamic imports in program.ts), so `--version` does not load
// the dispatcher. The library (package.json "exports") is the plain tsc output: it is not bundled.
//
// Kept outside the bundle: Piscina and QuickJS (loaded only when a JS hook runs; they find their
// own files next to themselves), the service's fastify, pino and prom-client (`serve` is
// long-lived: its start-up time does not matter, and pino and fastify load files of their own), and
// OpenTelemetry (loaded only when traces are on).
// The output folder is two levels under dist/, like dist/src/<stage>/ and dist/sandbox/<part>/, so
// the `new URL('../../…', import.meta.url)` lookups of the QuickJS worker file and the exec helper
// find the same files from the bundle (rolldown rewrites import.meta.url in the CommonJS files).
//
// The one-shot dispatch path (full-dispatch.js and what it imports statically, beyond main.js and
// the adapter's chunk) is ONE chunk, `dispatch-path`: as ~20 chunks it loaded ~20 ms slower
// (bench/README.md, Claude Code adapter). zod stays its own chunk (measured: no faster inside).
//
// The Claude Code adapter (`hookwarden claude-code`, which Claude Code starts once per event) has a
// bundle of its own, in CommonJS: claude-code.cjs (entry src/cli/claude-code/adapter-main.js, with
// the fast path: adapter.js and what it imports statically) and claude-code-full-*.cjs (the one-shot
// dispatch, required only when a hook must run in the process). bin/hookwarden requires it for
// `claude-code`: Node 20 spends ~7 ms setting up its ES module loader before an ES module's first
// line runs, and more per module; a CommonJS entry skips all of it. The ES module bundle keeps the
// adapter too (main.js runs it when started directly), with its fast path as ONE chunk: ~15 chunks
// cost ~10 ms more than one file.
import { readFileSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type InputOptions } from 'rolldown';

const dist = new URL('../', import.meta.url);
const outDir = fileURLToPath(new URL('cli/bundle/', dist));

/** The modules `entry` imports statically, itself included (relative imports of tsc's output). */
function staticClosure(entry: string): Set<string> {
  return staticImports(entry).modules;
}

/** `entry`'s static closure (side-effect imports too), and the packages it imports (bare, not node:). */
function staticImports(entry: string): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:(?:import|export)\s[^;]*?\sfrom|import)\s+'([^']+)';/gms)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else if (!spec.startsWith('node:'))
        packages.add(
          spec
            .split('/')
            .slice(0, spec.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    }
  };
  visit(entry);
  return { modules, packages };
}
const cliFile = (rel: string) => fileURLToPath(new URL(`src/cli/${rel}`, dist));
const loadedByMain = staticClosure(cliFile('main.js'));
const adapterFastPath = new Set(
  [...staticClosure(cliFile('claude-code/adapter.js'))].filter((f) => !loadedByMain.has(f)),
);

// Not zod-jitless.js: its side effect is the adapter's alone (serve loads this chunk too).
const jitless = cliFile('claude-code/zod-jitless.js');
const dispatchPath = new Set(
  [...staticClosure(cliFile('adapter/full-dispatch.js'))].filter(
    (f) => !loadedByMain.has(f) && !adapterFastPath.has(f) && f !== jitless,
  ),
);

/** What both bundles share: Node, the same externals, the same resolution, the same logs. */
const shared = {
  platform: 'node',
  external: [
    /^piscina(\/|$)/,
    /^quickjs-emscripten-core(\/|$)/,
    /^@jitl\//,
    /^fastify(\/|$)/,
    /^pino(\/|$)/,
    /^prom-client(\/|$)/,
    // The OpenTelemetry API and SDK: loaded only when traces are on (serve's OTEL_* variables, or a
    // library caller's tracer), from node_modules like the service's other packages.
    /^@opentelemetry\//,
  ],
  logLevel: 'warn',
  // pins.js imports the remote-pack modules lazily (for the library); in the CLI the executor imports
  // them statically anyway, which rolldown reports once modules are grouped: expected.
  onLog: (level, log, handler) => {
    if (log.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') handler(level, log);
  },
  // Prefer a package's ES module build: a UMD build (jsonc-parser's "main") hides its requires
  // from the bundler.
  resolve: { mainFields: ['module', 'main'] },
} satisfies InputOptions;

rmSync(outDir, { recursive: true, force: true });
await build({
  input: fileURLToPath(new URL('src/cli/main.js', dist)),
  // The entry's exports are not used by anyone (it is run): the adapter group may leave them out.
  preserveEntrySignatures: 'allow-extension',
  ...shared,
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

// The adapter's CommonJS bundle: the entry and the fast path in claude-code.cjs; the one-shot
// dispatch's static closure and the packages it imports (zod, jsonc-parser) in one more file; what
// the dispatch imports lazily (packs, tar) in chunks of their own.
const adapterEntry = staticClosure(cliFile('claude-code/adapter-main.js'));
const oneShot = staticImports(cliFile('adapter/full-dispatch.js'));
const inOneShot = (id: string) =>
  oneShot.modules.has(id) || [...oneShot.packages].some((p) => id.includes(`/node_modules/${p}/`));
await build({
  input: cliFile('claude-code/adapter-main.js'),
  // Its export (`started`) is read by bin/hookwarden: kept, the group may add to it.
  preserveEntrySignatures: 'allow-extension',
  ...shared,
  output: {
    dir: outDir,
    format: 'cjs',
    entryFileNames: 'claude-code.cjs',
    chunkFileNames: 'claude-code-[name]-[hash].cjs',
    codeSplitting: {
      groups: [
        {
          name: 'full',
          test: (id: string) => !adapterEntry.has(id) && inOneShot(id),
          includeDependenciesRecursively: false,
        },
      ],
    },
    minify: true,
  },
});
