// Builds the native parts of the adapters' fast path (run by `npm run build`, after the sandbox's
// helpers): hookwarden-client, the small C program every agent's `install` writes as the hook command
// (src/cli/claude-code/native/hookwarden-client.c and its parts, with the adapters' fail-closed
// answers generated from their specs: client-tables.ts), and peer-cred.node, the
// N-API addon with which the daemon asks the kernel who connected (SO_PEERCRED). Both go to
// dist/native/. Without a C compiler, or without Node's headers for the addon, the build says so and
// writes dist/native/client-build.json with the reason: `install` then writes the Node command, and
// `hookwarden doctor` says why.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clientTables } from './client-tables.js';

const source = (name: string) =>
  fileURLToPath(new URL(`../../src/cli/claude-code/native/${name}`, import.meta.url));
const outDir = fileURLToPath(new URL('../native/', import.meta.url));
mkdirSync(outDir, { recursive: true });
const cc = process.env.CC ?? 'cc';
const WARNINGS = ['-O2', '-Wall', '-Wextra', '-Werror'];

/** Compiles; returns why not, or undefined. */
function compile(args: string[]): string | undefined {
  const r = spawnSync(cc, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (r.status === 0) return undefined;
  return r.error !== undefined ? r.error.message : (r.stderr.trim().split('\n')[0] ?? `exit ${r.status}`);
}

/** Node's headers (node_api.h): next to this node (official builds), or a distribution's. */
function nodeHeaders(): string | undefined {
  const candidates = [
    join(dirname(process.execPath), '..', 'include', 'node'),
    '/usr/include/node',
    '/usr/local/include/node',
  ];
  return candidates.find((d) => existsSync(join(d, 'node_api.h')));
}

const problems: Record<string, string> = {};

const client = join(outDir, 'hookwarden-client');
rmSync(client, { force: true });
const clientSources = [
  'hookwarden-client.c',
  'client-event.c',
  'client-fallback.c',
  'client-paths.c',
  'client-wire.c',
  'sha256.c',
].map(source);
// The adapters' table, generated from the specs of this very build (scripts/client-tables.ts).
const generated = mkdtempSync(join(tmpdir(), 'hw-client-gen-'));
writeFileSync(join(generated, 'agents.gen.h'), clientTables());
const include = `-I${generated}`;
// Static when the C library allows it (a static binary starts fastest: no dynamic loader); else dynamic.
let why = compile(['-static', ...WARNINGS, include, '-o', client, ...clientSources]);
if (why !== undefined) why = compile([...WARNINGS, include, '-o', client, ...clientSources]);
if (why !== undefined) problems.client = `could not build hookwarden-client: ${why}`;
rmSync(generated, { recursive: true, force: true });

const addon = join(outDir, 'peer-cred.node');
rmSync(addon, { force: true });
const headers = nodeHeaders();
if (headers === undefined)
  problems.peerCred = 'no Node headers (node_api.h) next to this node or in /usr/include/node';
else {
  const failed = compile([
    ...WARNINGS,
    '-shared',
    '-fPIC',
    `-I${headers}`,
    '-o',
    addon,
    source('peer-cred.c'),
  ]);
  if (failed !== undefined) problems.peerCred = `could not build peer-cred.node: ${failed}`;
}

writeFileSync(join(outDir, 'client-build.json'), `${JSON.stringify({ cc, problems }, null, 2)}\n`);
for (const p of Object.values(problems))
  process.stderr.write(`hookwarden: note: ${p}; \`<agent> install\` will write the Node adapter command\n`);
