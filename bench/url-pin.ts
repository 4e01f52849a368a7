// Packs pinned by URL: what pinning a bundle instead of a directory costs.
//
// Table 1, whole CLI processes (a one-shot `hookwarden dispatch`, as Claude Code runs one per tool
// call), against `node -e 0`: the example guard pack pinned by path (the baseline the others are
// compared with), by url with its key (a cached bundle younger than pollSeconds: no request), and by
// url with its digest (cached: never a request). The input is a Read, which no hook of the pack
// matches, so the rows differ only in how the pack is loaded and verified.
//
// Table 2, in one process: createExecutor() + close() with the pack pinned by path, by url answered
// with a 304 (the default revalidation: one conditional GET), and by url into an empty cache
// (download, safe unpack, verification); and, as the baseline of the 304 variant, a bare
// conditional fetch. The server is a real HTTP server on 127.0.0.1.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createExecutor, type ExecutorOptions } from '../src/index.js';
import { bundlePack, lockPack, signPack, writePackKeyPair } from '../src/packs-entry.js';
import { fmt, interleavedLatency, machine, runProcess, type ScenarioReport } from './harness.js';

const BIN = fileURLToPath(new URL('../../bin/hookwarden', import.meta.url));
const EXAMPLE = [
  new URL('../examples/packs/guard', import.meta.url),
  new URL('../../examples/packs/guard', import.meta.url),
]
  .map((u) => fileURLToPath(u))
  .find((p) => {
    try {
      return readFileSync(join(p, 'hookpack.json')).length > 0;
    } catch {
      return false;
    }
  });

export async function run(quick = false): Promise<ScenarioReport> {
  if (EXAMPLE === undefined) throw new Error('examples/packs/guard not found');
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-url-'));
  const bundle = { bytes: Buffer.alloc(0) };
  const server = createServer((req, res) => {
    if (req.headers['if-none-match'] === '"v1"') res.writeHead(304).end();
    else res.writeHead(200, { etag: '"v1"', 'content-length': bundle.bytes.length }).end(bundle.bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const pack = join(dir, 'guard');
    cpSync(EXAMPLE, pack, { recursive: true });
    const { digest } = await lockPack(pack);
    const keys = await writePackKeyPair(join(dir, 'keys', 'reviewer'));
    await signPack(pack, readFileSync(keys.keyFile));
    await bundlePack(pack, join(dir, 'guard.tar.gz'));
    bundle.bytes = readFileSync(join(dir, 'guard.tar.gz'));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/guard.tar.gz`;
    const write = (name: string, value: unknown) => {
      writeFileSync(join(dir, name), JSON.stringify(value));
      return join(dir, name);
    };
    const byPath = write('path.json', { packs: [{ path: pack, digest }] });
    const byKey = write('key.json', {
      packs: [{ url, name: 'guard', publicKeys: [keys.publicKeyFile], pollSeconds: 86_400 }],
    });
    const byDigest = write('digest.json', { packs: [{ url, digest }] });
    const input = write('input.json', { toolName: 'Read', toolInput: { file_path: 'README.md' } });
    const cache = join(dir, 'cache');
    const dispatch = (policy: string) => () =>
      runProcess([BIN, 'dispatch', 'BeforeTool', '-p', policy, '-i', input, '--pack-cache', cache]);

    const cli = await interleavedLatency(
      {
        'node -e 0': () => runProcess(['-e', '0']),
        'dispatch, pinned by path': dispatch(byPath),
        'dispatch, url pin by key (cached)': dispatch(byKey),
        'dispatch, url pin by digest (cached)': dispatch(byDigest),
      },
      { warmup: quick ? 1 : 3, iterations: quick ? 3 : 20 },
    );

    let cold = 0;
    const load = (policy: string, cacheDir: () => string) => async () => {
      const options: ExecutorOptions = {
        policy,
        remotePacks: { cacheDir: cacheDir() },
        onWarning: () => {},
        prestartJsWorkers: false, // the load only: not the QuickJS workers' start
      };
      const hw = await createExecutor(options);
      await hw.close();
    };
    const lib = await interleavedLatency(
      {
        'createExecutor, pinned by path': load(byPath, () => cache),
        'createExecutor, url pin, 304': load(byKey, () => cache),
        'createExecutor, url pin, empty cache': load(byKey, () => join(dir, `cold-${cold++}`)),
        // The round trip a url pin cannot avoid, alone: the baseline of the 304 variant's cost.
        'a bare conditional fetch (304)': async () => {
          const res = await fetch(url, { headers: { 'if-none-match': '"v1"' } });
          await res.arrayBuffer();
        },
      },
      { warmup: quick ? 1 : 3, iterations: quick ? 3 : 30 },
    );

    const table = (r: Record<string, { p50: number; p90: number; n: number }>, base: string) =>
      Object.entries(r).map(
        ([name, s]) => `| ${name} | ${fmt(s.p50, 1)} | ${fmt(s.p90, 1)} | ${fmt(s.p50 / r[base]!.p50, 2)}× |`,
      );
    const ratio = (r: Record<string, { p50: number }>, a: string, b: string) => r[a]!.p50 / r[b]!.p50;
    const goal = (what: string, value: number, limit: number) =>
      `${what} ≤ ${limit}×: ${fmt(value, 2)}× — ${value <= limit ? 'met' : 'NOT met'}`;
    return {
      title: 'Packs pinned by URL (CLI dispatch and createExecutor, vs a pin by path)',
      markdown: [
        `The example guard pack (${bundle.bytes.length}-byte bundle), served from 127.0.0.1. ${cli['node -e 0']!.n} rounds of`,
        `whole processes, ${lib['createExecutor, pinned by path']!.n} of in-process loads; measured on ${machine()}.`,
        'Reproduce: `npm run bench -- url-pin`.',
        '',
        '| variant | p50 ms | p90 ms | p50 vs pinned by path |',
        '|---|---|---|---|',
        ...table(cli, 'dispatch, pinned by path'),
        '',
        '| variant | p50 ms | p90 ms | p50 vs pinned by path |',
        '|---|---|---|---|',
        ...table(lib, 'createExecutor, pinned by path'),
      ].join('\n'),
      goals: [
        goal(
          'a CLI dispatch with a cached url pin, p50 vs pinned by path',
          ratio(cli, 'dispatch, url pin by key (cached)', 'dispatch, pinned by path'),
          1.25,
        ),
        // A conditional GET is a round trip, plus about ten small file operations (the cache checked,
        // the record read, the bundle found, the record written): what the pin adds, vs the bare GET.
        goal(
          'createExecutor with a url pin answered 304: p50 added to pinned by path, vs a bare conditional fetch',
          (lib['createExecutor, url pin, 304']!.p50 - lib['createExecutor, pinned by path']!.p50) /
            lib['a bare conditional fetch (304)']!.p50,
          5,
        ),
      ],
    };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  }
}
