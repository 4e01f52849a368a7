// `hookwarden serve` over HTTP, side by side with its floors, in one run. The server and a bare
// fastify route each run in their own process (as deployed); the load comes from keep-alive undici
// clients in this process. Three measurements:
//   1. fast path (no hook matches): dispatches/s at concurrency 32 against a bare fastify route that
//      parses the same JSON body and answers a constant. Goal ≥ 0.5×.
//   2. one JS hook at concurrency 1: HTTP p50 against the library's dispatch() p50 (same config,
//      in this process). Goal ≤ +0.3 ms.
//   3. two tenants: one floods with slow command hooks at concurrency 32 while the other dispatches;
//      the quiet tenant's p99 against its p99 alone, in interleaved rounds. Goal ≤ 2×
//      (serve-fairness.ts; with HOOKWARDEN_BENCH_BEFORE=<built checkout>/bin/hookwarden, that build's
//      server too, in the same rounds).
// HOOKWARDEN_BENCH_SERVE=fairness runs part 3 alone, HOOKWARDEN_BENCH_SERVE=fast parts 1 and 2; the
// "before" build (HOOKWARDEN_BENCH_BEFORE) runs in every part, in the same interleaved rounds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { createExecutor, type Executor } from '../src/index.js';
import { TRIVIAL_HOOK } from '../src/measure/baselines.js';
import { newToken } from '../src/server/tokens.js';
import {
  BENCH_INPUT,
  fmt,
  fmtRate,
  interleavedLatency,
  interleavedThroughput,
  type ScenarioReport,
  type Stats,
} from './harness.js';
import { post, startProcess } from './serve-client.js';
import { type FairTarget, quietBesideFlood, SLOW_SECONDS } from './serve-fairness.js';

const BIN = fileURLToPath(new URL('../../bin/hookwarden', import.meta.url));
const BARE = fileURLToPath(new URL('./workers/bare-fastify.js', import.meta.url));
const js = { type: 'js', code: TRIVIAL_HOOK };
/** The flooding tenant's hook: a slow command. */
const slow = { type: 'command', argv: ['/bin/sleep', SLOW_SECONDS] };

const CONFIG = {
  tenants: {
    // BENCH_INPUT is a Bash call: a Write matcher never matches (the fast path).
    fast: { hooks: { BeforeTool: [{ matcher: 'Write', hooks: [js] }] } },
    js: { hooks: { BeforeTool: [{ hooks: [js] }] } },
    quiet: { hooks: { BeforeTool: [{ hooks: [js] }] } },
    quietCommand: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', argv: ['/bin/true'] }] }] } },
    flood: { hooks: { BeforeTool: [{ hooks: [slow] }] } },
    // The same flood from a tenant the operator capped at half the command lane.
    floodCapped: { limits: { maxConcurrent: 8 }, hooks: { BeforeTool: [{ hooks: [slow] }] } },
  },
};
const TENANTS = Object.keys(CONFIG.tenants);

export async function run(quick = false): Promise<ScenarioReport> {
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-serve-'));
  const tokens = Object.fromEntries(TENANTS.map((t) => [t, newToken({ tenant: t })]));
  const config = join(dir, 'hooks.json');
  const auth = join(dir, 'auth.json');
  writeFileSync(config, JSON.stringify(CONFIG));
  writeFileSync(auth, JSON.stringify({ tokens: Object.values(tokens).map((t) => t.entry) }), { mode: 0o600 });
  const token = (t: string) => tokens[t]!.token;
  const serveArgs = (bin: string) => [bin, 'serve', '-c', config, '--listen', '127.0.0.1:0', '--auth', auth];
  const server = await startProcess(serveArgs(BIN));
  const beforeBin = process.env.HOOKWARDEN_BENCH_BEFORE || undefined;
  const before = beforeBin === undefined ? undefined : await startProcess(serveArgs(beforeBin));
  const onlyFairness = process.env.HOOKWARDEN_BENCH_SERVE === 'fairness';
  const onlyFast = process.env.HOOKWARDEN_BENCH_SERVE === 'fast';
  const bare = await startProcess([BARE]);
  const executor = await createExecutor({ config, onWarning: () => {} });
  const pools: Pool[] = [];
  const pool = (url: string, connections: number) => {
    const p = new Pool(url, { connections, pipelining: 1 });
    pools.push(p);
    return p;
  };
  try {
    // Each variant answers as it should before anything is timed.
    const check = (text: string, decision: string) => {
      if (JSON.parse(text).decision !== decision) throw new Error(`expected ${decision}, got ${text}`);
    };
    const hw32 = pool(server.url, 32);
    check(await post(hw32, token('fast')), 'passthrough');
    check(await post(hw32, token('js')), 'allow');
    const markdown: string[] = [];
    const goals: string[] = [];
    if (!onlyFairness) {
      const beforeTarget =
        before === undefined
          ? undefined
          : { label: process.env.HOOKWARDEN_BENCH_BEFORE_LABEL ?? 'before', url: before.url };
      const parts = await fastAndJs(hw32, pool, server.url, bare.url, token, executor, quick, beforeTarget);
      markdown.push(...parts.markdown, '');
      goals.push(...parts.goals);
    }

    if (onlyFast) return { title: 'hookwarden serve over HTTP', markdown: markdown.join('\n'), goals };
    // 3. A quiet tenant alone and beside a flooding one, interleaved rounds (and builds).
    const targets: FairTarget[] = [{ label: 'this build', url: server.url }];
    if (before !== undefined)
      targets.push({ label: process.env.HOOKWARDEN_BENCH_BEFORE_LABEL ?? 'before', url: before.url });
    const fair = await quietBesideFlood(targets, token, pool, quick);
    markdown.push(...fair.markdown);
    goals.push(...fair.goals);
    return { title: 'hookwarden serve over HTTP', markdown: markdown.join('\n'), goals };
  } finally {
    await Promise.all(pools.map((p) => p.close()));
    await executor.close();
    await Promise.all([server.stop(), bare.stop(), before?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Parts 1 and 2: fast-path throughput against a bare fastify route; one JS hook against the library. */
async function fastAndJs(
  hw32: Pool,
  pool: (url: string, connections: number) => Pool,
  serverUrl: string,
  bareUrl: string,
  token: (tenant: string) => string,
  executor: Executor,
  quick: boolean,
  before?: { label: string; url: string },
): Promise<{ markdown: string[]; goals: string[] }> {
  const bare32 = pool(bareUrl, 32);
  if (JSON.parse(await post(bare32, undefined)).decision !== 'passthrough')
    throw new Error('the bare route does not answer passthrough');
  const BARE_ROUTE = 'bare fastify route (same JSON body, constant answer)';
  const FAST = 'hookwarden serve, fast path (no hook matches)';
  const BEFORE_FAST = `${before?.label}: hookwarden serve, fast path`;
  const before32 = before === undefined ? undefined : pool(before.url, 32);
  // 1. Fast-path throughput at concurrency 32.
  const thr = await interleavedThroughput(
    {
      [BARE_ROUTE]: () => post(bare32, undefined),
      [FAST]: () => post(hw32, token('fast')),
      ...(before32 === undefined ? {} : { [BEFORE_FAST]: () => post(before32, token('fast')) }),
    },
    { blockOps: quick ? 200 : 20_000, blocks: quick ? 1 : 5, concurrency: 32 },
  );
  const bareRate = thr[BARE_ROUTE]!.median;
  const fastRate = thr[FAST]!.median;

  // 2. One JS hook at concurrency 1: HTTP against the library.
  const hw1 = pool(serverUrl, 1);
  const bare1 = pool(bareUrl, 1);
  const before1 = before === undefined ? undefined : pool(before.url, 1);
  const BEFORE_JS = `${before?.label}: HTTP dispatch, one JS hook`;
  await executor.dispatch('BeforeTool', BENCH_INPUT, { tenant: 'js' });
  const lat = await interleavedLatency(
    {
      'library dispatch(), one JS hook': () => executor.dispatch('BeforeTool', BENCH_INPUT, { tenant: 'js' }),
      'HTTP dispatch, one JS hook': () => post(hw1, token('js')),
      'HTTP bare fastify route': () => post(bare1, undefined),
      ...(before1 === undefined ? {} : { [BEFORE_JS]: () => post(before1, token('js')) }),
    },
    { warmup: quick ? 5 : 300, iterations: quick ? 20 : 3000 },
  );
  const lib = lat['library dispatch(), one JS hook']!;
  const http = lat['HTTP dispatch, one JS hook']!;
  const floor = lat['HTTP bare fastify route']!;
  const row = (name: string, s: Stats, extra: string) =>
    `| ${name} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${extra} |`;
  const range = (k: string) => `${fmtRate(thr[k]!.min)}–${fmtRate(thr[k]!.max)}`;
  return {
    markdown: [
      'Servers in their own processes (`hookwarden serve` with --auth and default logging, and a bare fastify',
      'route); keep-alive undici clients in the bench process.',
      '',
      '| fast path, concurrency 32 | requests/s (median of blocks) | range | vs bare fastify |',
      '|---|---|---|---|',
      `| ${BARE_ROUTE} | ${fmtRate(bareRate)} | ${range(BARE_ROUTE)} | 1.00× |`,
      `| ${FAST} | ${fmtRate(fastRate)} | ${range(FAST)} | ${fmt(fastRate / bareRate, 2)}× |`,
      ...(before32 === undefined
        ? []
        : [
            `| ${BEFORE_FAST} | ${fmtRate(thr[BEFORE_FAST]!.median)} | ${range(BEFORE_FAST)} | ${fmt(thr[BEFORE_FAST]!.median / bareRate, 2)}× |`,
          ]),
      '',
      '| one JS hook, concurrency 1 | p50 ms | p90 ms | p99 ms | p50 − library p50 |',
      '|---|---|---|---|---|',
      row('library dispatch(), in process', lib, '0'),
      row('HTTP dispatch (hookwarden serve)', http, `+${fmt(http.p50 - lib.p50)} ms`),
      row('HTTP bare fastify route (the HTTP floor)', floor, `${fmt(floor.p50 - lib.p50)} ms`),
      ...(before1 === undefined
        ? []
        : [row(BEFORE_JS, lat[BEFORE_JS]!, `+${fmt(lat[BEFORE_JS]!.p50 - lib.p50)} ms`)]),
    ],
    goals: [
      `fast-path throughput ≥ 0.7× a bare fastify route: ${fmt(fastRate / bareRate, 2)}× — ${fastRate / bareRate >= 0.7 ? 'met' : 'NOT met'}`,
      `one JS hook HTTP p50 ≤ library dispatch() p50 + 0.3 ms: +${fmt(http.p50 - lib.p50)} ms — ${http.p50 - lib.p50 <= 0.3 ? 'met' : 'NOT met'}`,
    ],
  };
}
