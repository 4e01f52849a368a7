// Builds hookwarden's native helpers (run by `npm run build`): the spawn server, which starts every
// command hook so that the main thread never forks and builds its sandboxes (sandbox/native/
// spawn-server.c with the other spawn-*.c files), the hw-exec helper, which the Node spawn path
// uses (sandbox/native/hw-exec.c), and hw-no-dump.node, the Node-API module that marks hookwarden's
// own process not dumpable (src/native/no-dump.c). All go to dist/native/. Without a C compiler the build says so, and
// hookwarden falls back to spawning hooks from Node through prlimit(1) at run time (docs/spawning.md).
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const native = (name: string) =>
  fileURLToPath(
    new URL(name.includes('/') ? `../../${name}` : `../../sandbox/native/${name}`, import.meta.url),
  );
const outDir = fileURLToPath(new URL('../native/', import.meta.url));
mkdirSync(outDir, { recursive: true });

const HELPERS = [
  {
    out: 'hw-spawn-server',
    sources: [
      'spawn-server.c',
      'spawn-hello.c',
      'spawn-relay.c',
      'spawn-start.c',
      'spawn-child.c',
      'spawn-contain.c',
      'spawn-ns.c',
      'spawn-template.c',
      'spawn-mounts.c',
      'spawn-copy.c',
      'spawn-cap.c',
      'spawn-landlock.c',
      'spawn-exec.c',
      'spawn-wire.c',
    ],
    without: 'command hooks will be spawned from Node on the main thread',
  },
  { out: 'hw-exec', sources: ['hw-exec.c'], without: 'command hooks will use prlimit(1)' },
  {
    out: 'hw-no-dump.node',
    sources: ['src/native/no-dump.c'],
    // A module Node loads: position-independent, its napi_* symbols resolved from Node at load.
    shared: true,
    without: "hookwarden's own process stays dumpable (hooks running uncontained can read its environment)",
  },
];

const cc = process.env.CC ?? 'cc';
for (const helper of HELPERS) {
  const flags = [
    ...('shared' in helper ? ['-shared', '-fPIC'] : []),
    '-O2',
    '-Wall',
    '-Wextra',
    '-Werror',
    '-o',
    `${outDir}${helper.out}`,
    ...helper.sources.map(native),
  ];
  // Static when the C library allows it (a static binary starts fastest); dynamic otherwise.
  let r = spawnSync(cc, 'shared' in helper ? flags : ['-static', ...flags], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (r.status !== 0) r = spawnSync(cc, flags, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) {
    const why = r.error !== undefined ? r.error.message : r.stderr.trim().split('\n')[0];
    process.stderr.write(`hookwarden: note: could not build ${helper.out} (${why}); ${helper.without}\n`);
  }
}
