// `hookwarden serve` over HTTP, side by side with its floors, in one run. The server and a bare
// fastify route each run in their own process (as deployed); the load comes from keep-alive undici
// clients in this process. Three measurements:
//   1. fast path (no hook matches): dispatches/s at concurrency 32 against a bare fastify route that
//      parses the same JSON body and answers a constant. Goal ≥ 0.5×.
//   2. one JS hook at concurrency 1: HTTP p50 against the library's dispatch() p50 (same config,
//      in this process). Goal ≤ +0.3 ms.
//   3. two tenants: one floods with slow command hooks at concurrency 32 while the other dispatches;
//      the quiet tenant's p99 against its p99 alone, in interleaved rounds. Goal ≤ 2×.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { createExecutor } from '../src/index.js';
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
  stats,
} from './harness.js';

const BIN = fileURLToPath(new URL('../../bin/hookwarden', import.meta.url));
const BARE = fileURLToPath(new URL('./workers/bare-fastify.js', import.meta.url));
const BODY = JSON.stringify(BENCH_INPUT);
const js = { type: 'js', code: TRIVIAL_HOOK };
/** The flooding tenant's hook: a slow command. */
const SLOW_SECONDS = '0.2';
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

interface Proc {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a process that prints {"listening": url} first. */
function startProcess(args: string[]): Promise<Proc> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code} before listening`)));
    child.stdout!.on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      const { listening } = JSON.parse(out.slice(0, out.indexOf('\n'))) as { listening: string };
      child.removeAllListeners('exit');
      resolve({
        url: listening,
        child,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/** POSTs the bench input; rejects on any status but 200 (a broken setup cannot pass for a result). */
async function post(pool: Pool, token: string | undefined, event = 'BeforeTool'): Promise<string> {
  const res = await pool.request({
    path: `/v1/dispatch/${event}`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: BODY,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
  return text;
}

/** Runs `n` calls of `fn`, `concurrency` at a time, and returns their latencies (ms). */
async function load(fn: () => Promise<unknown>, n: number, concurrency: number): Promise<number[]> {
  const out: number[] = [];
  let next = 0;
  const lane = async () => {
    while (next < n) {
      next++;
      const t = performance.now();
      await fn();
      out.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return out;
}

/** Calls `fn` `concurrency` at a time until `stop` resolves; returns how many finished. */
async function flood(fn: () => Promise<unknown>, concurrency: number, stop: Promise<void>): Promise<number> {
  let stopped = false;
  let done = 0;
  void stop.then(() => (stopped = true));
  const lane = async () => {
    while (!stopped) {
      await fn();
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return done;
}

export async function run(quick = false): Promise<ScenarioReport> {
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-serve-'));
  const tokens = Object.fromEntries(TENANTS.map((t) => [t, newToken({ tenant: t })]));
  const config = join(dir, 'hooks.json');
  const auth = join(dir, 'auth.json');
  writeFileSync(config, JSON.stringify(CONFIG));
  writeFileSync(auth, JSON.stringify({ tokens: Object.values(tokens).map((t) => t.entry) }), { mode: 0o600 });
  const token = (t: string) => tokens[t]!.token;
  const server = await startProcess([BIN, 'serve', '-c', config, '--listen', '127.0.0.1:0', '--auth', auth]);
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
    const bare32 = pool(bare.url, 32);
    check(await post(hw32, token('fast')), 'passthrough');
    check(await post(hw32, token('js')), 'allow');
    check(await post(bare32, undefined), 'passthrough');

    // 1. Fast-path throughput at concurrency 32.
    const thr = await interleavedThroughput(
      {
        'bare fastify route (same JSON body, constant answer)': () => post(bare32, undefined),
        'hookwarden serve, fast path (no hook matches)': () => post(hw32, token('fast')),
      },
      { blockOps: quick ? 200 : 20_000, blocks: quick ? 1 : 5, concurrency: 32 },
    );
    const bareRate = thr['bare fastify route (same JSON body, constant answer)']!.median;
    const fastRate = thr['hookwarden serve, fast path (no hook matches)']!.median;

    // 2. One JS hook at concurrency 1: HTTP against the library.
    const hw1 = pool(server.url, 1);
    const bare1 = pool(bare.url, 1);
    await executor.dispatch('BeforeTool', BENCH_INPUT, { tenant: 'js' });
    const lat = await interleavedLatency(
      {
        'library dispatch(), one JS hook': () =>
          executor.dispatch('BeforeTool', BENCH_INPUT, { tenant: 'js' }),
        'HTTP dispatch, one JS hook': () => post(hw1, token('js')),
        'HTTP bare fastify route': () => post(bare1, undefined),
      },
      { warmup: quick ? 5 : 300, iterations: quick ? 20 : 3000 },
    );
    const lib = lat['library dispatch(), one JS hook']!;
    const http = lat['HTTP dispatch, one JS hook']!;
    const floor = lat['HTTP bare fastify route']!;

    // 3. A quiet tenant alone and beside a flooding one, interleaved rounds.
    const QUIET_C = 4;
    const FLOOD_C = 32;
    const perPhase = quick ? 20 : 1500;
    const rounds = quick ? 1 : 3;
    const quietPool = pool(server.url, QUIET_C);
    const floodPool = pool(server.url, FLOOD_C);
    const FLOODS = ['flood', 'floodCapped'] as const;
    const quiet: Record<string, Record<'alone' | (typeof FLOODS)[number], number[]>> = {
      quiet: { alone: [], flood: [], floodCapped: [] },
      quietCommand: { alone: [], flood: [], floodCapped: [] },
    };
    const floodRate: Record<string, { done: number; ms: number }> = {
      flood: { done: 0, ms: 0 },
      floodCapped: { done: 0, ms: 0 },
    };
    const beside = async (tenant: string, flooder: (typeof FLOODS)[number]) => {
      let stop!: () => void;
      const stopped = new Promise<void>((res) => (stop = res));
      const t = performance.now();
      const flooding = flood(() => post(floodPool, token(flooder)), FLOOD_C, stopped);
      // Let the flood fill the command lane before measuring (its first hooks are spawning).
      await load(() => post(quietPool, token(tenant)), QUIET_C * 4, QUIET_C);
      quiet[tenant]![flooder].push(...(await load(() => post(quietPool, token(tenant)), perPhase, QUIET_C)));
      stop();
      floodRate[flooder]!.done += await flooding;
      floodRate[flooder]!.ms += performance.now() - t;
    };
    for (let r = 0; r < rounds; r++) {
      for (const tenant of Object.keys(quiet)) {
        const phases = [
          async () =>
            quiet[tenant]!.alone.push(
              ...(await load(() => post(quietPool, token(tenant)), perPhase, QUIET_C)),
            ),
          ...FLOODS.map((f) => () => beside(tenant, f)),
        ];
        // Rotate which phase goes first.
        for (let k = 0; k < phases.length; k++) await phases[(r + k) % phases.length]!();
      }
    }
    const q = Object.fromEntries(
      Object.entries(quiet).map(([t, v]) => [
        t,
        { alone: stats(v.alone), flood: stats(v.flood), floodCapped: stats(v.floodCapped) },
      ]),
    ) as Record<string, Record<'alone' | (typeof FLOODS)[number], Stats>>;
    const ratio = (t: string, f: (typeof FLOODS)[number]) => q[t]![f].p99 / q[t]!.alone.p99;
    const worst = (f: (typeof FLOODS)[number]) => Math.max(...Object.keys(q).map((t) => ratio(t, f)));
    const rate = (f: string) => fmtRate((floodRate[f]!.done / floodRate[f]!.ms) * 1000);

    const row = (name: string, s: Stats, extra: string) =>
      `| ${name} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${extra} |`;
    const markdown = [
      'Servers in their own processes (`hookwarden serve` with --auth and default logging, and a bare fastify',
      'route); keep-alive undici clients in the bench process.',
      '',
      '| fast path, concurrency 32 | requests/s (median of blocks) | range | vs bare fastify |',
      '|---|---|---|---|',
      `| bare fastify route (same JSON body, constant answer) | ${fmtRate(bareRate)} | ${fmtRate(thr['bare fastify route (same JSON body, constant answer)']!.min)}–${fmtRate(thr['bare fastify route (same JSON body, constant answer)']!.max)} | 1.00× |`,
      `| hookwarden serve, fast path (no hook matches) | ${fmtRate(fastRate)} | ${fmtRate(thr['hookwarden serve, fast path (no hook matches)']!.min)}–${fmtRate(thr['hookwarden serve, fast path (no hook matches)']!.max)} | ${fmt(fastRate / bareRate, 2)}× |`,
      '',
      '| one JS hook, concurrency 1 | p50 ms | p90 ms | p99 ms | p50 − library p50 |',
      '|---|---|---|---|---|',
      row('library dispatch(), in process', lib, '0'),
      row('HTTP dispatch (hookwarden serve)', http, `+${fmt(http.p50 - lib.p50)} ms`),
      row('HTTP bare fastify route (the HTTP floor)', floor, `${fmt(floor.p50 - lib.p50)} ms`),
      '',
      `| quiet tenant (concurrency ${QUIET_C}) | p50 / p99 alone | p50 / p99 beside the flood | p99 ratio | p50 / p99 beside the capped flood | p99 ratio |`,
      '|---|---|---|---|---|---|',
      ...Object.entries(q).map(
        ([t, v]) =>
          `| ${t === 'quiet' ? 'JS hook' : 'command hook (/bin/true)'} | ${fmt(v.alone.p50)} / ${fmt(v.alone.p99)} | ${fmt(v.flood.p50)} / ${fmt(v.flood.p99)} | ${fmt(ratio(t, 'flood'), 2)}× | ${fmt(v.floodCapped.p50)} / ${fmt(v.floodCapped.p99)} | ${fmt(ratio(t, 'floodCapped'), 2)}× |`,
      ),
      '',
      `The flood: another tenant at concurrency ${FLOOD_C}, each dispatch a \`sleep ${SLOW_SECONDS}\` command hook. "The flood" has no tenant limits: it may take all 16 slots of the command lane (fair rotation gives the quiet tenant the next free slot, but a slot frees only when a sleep ends); it completed ${rate('flood')} dispatches/s. "The capped flood" is the same tenant with \`limits.maxConcurrent: 8\` (half the lane), as an operator would set it; ${rate('floodCapped')} dispatches/s. ${perPhase.toLocaleString('en-US')} quiet dispatches per phase, ${rounds} round(s), phases interleaved (rotating which goes first). Times in ms.`,
    ].join('\n');
    return {
      title: 'hookwarden serve over HTTP',
      markdown,
      goals: [
        `fast-path throughput ≥ 0.5× a bare fastify route: ${fmt(fastRate / bareRate, 2)}× — ${fastRate / bareRate >= 0.5 ? 'met' : 'NOT met'}`,
        `one JS hook HTTP p50 ≤ library dispatch() p50 + 0.3 ms: +${fmt(http.p50 - lib.p50)} ms — ${http.p50 - lib.p50 <= 0.3 ? 'met' : 'NOT met'}`,
        `quiet tenant's p99 beside a flooding tenant ≤ 2× its p99 alone (no tenant limits): ${fmt(worst('flood'), 2)}× (worst of the two) — ${worst('flood') <= 2 ? 'met' : 'NOT met'}`,
        `the same with the flooding tenant capped at maxConcurrent 8: ${fmt(worst('floodCapped'), 2)}× — ${worst('floodCapped') <= 2 ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    await Promise.all(pools.map((p) => p.close()));
    await executor.close();
    await Promise.all([server.stop(), bare.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
