// `hookwarden serve` under a retry storm, serve defaults (no tenant limits, no rate): a quiet
// tenant's command hook (/bin/true, concurrency 4) alone, and beside a tenant whose 300 clients
// each send a dispatch (a `sleep 0.2` command hook) and, answered 429, send it again 50 ms later,
// ignoring Retry-After. Both in one run, in interleaved rounds (which phase goes first rotates), so
// the ratio of the quiet tenant's p99 beside the storm to its p99 alone is measured against a
// baseline taken on the same machine minutes apart. Goal ≤ 2×. HOOKWARDEN_BENCH_BEFORE=<built
// checkout>/bin/hookwarden runs that build's server in the same rounds too.
//   npm run build && node dist/bench/run-all.js serve-storm
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { newToken } from '../src/server/tokens.js';
import { fmt, type ScenarioReport, stats } from './harness.js';
import { load, type Proc, post, startProcess, storm } from './serve-client.js';

const BIN = fileURLToPath(new URL('../../bin/hookwarden', import.meta.url));
const STORM_CLIENTS = 300;
const BACKOFF_MS = 50;
const QUIET_C = 4;

const CONFIG = {
  tenants: {
    quiet: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', argv: ['/bin/true'] }] }] } },
    storm: { hooks: { BeforeTool: [{ hooks: [{ type: 'command', argv: ['/bin/sleep', '0.2'] }] }] } },
  },
};

interface Target {
  readonly label: string;
  readonly server: Proc;
  readonly quiet: Pool;
  readonly storm: Pool;
  readonly alone: number[];
  readonly beside: number[];
  done: number;
  refused: number;
  ms: number;
}

export async function run(quick = false): Promise<ScenarioReport> {
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-storm-'));
  const tokens = { quiet: newToken({ tenant: 'quiet' }), storm: newToken({ tenant: 'storm' }) };
  writeFileSync(join(dir, 'hooks.json'), JSON.stringify(CONFIG));
  writeFileSync(
    join(dir, 'auth.json'),
    JSON.stringify({ tokens: [tokens.quiet.entry, tokens.storm.entry] }),
    {
      mode: 0o600,
    },
  );
  const args = (bin: string) => [
    bin,
    'serve',
    '-c',
    join(dir, 'hooks.json'),
    '--listen',
    '127.0.0.1:0',
    '--auth',
    join(dir, 'auth.json'),
  ];
  const bins: [string, string][] = [['this build', BIN]];
  if (process.env.HOOKWARDEN_BENCH_BEFORE) bins.push(['before', process.env.HOOKWARDEN_BENCH_BEFORE]);
  const targets: Target[] = [];
  try {
    for (const [label, bin] of bins) {
      const server = await startProcess(args(bin));
      targets.push({
        label,
        server,
        quiet: new Pool(server.url, { connections: QUIET_C }),
        storm: new Pool(server.url, { connections: STORM_CLIENTS }),
        alone: [],
        beside: [],
        done: 0,
        refused: 0,
        ms: 0,
      });
    }
    const perPhase = quick ? 20 : 1000;
    const rounds = quick ? 1 : 3;
    const quiet = (t: Target) => () => post(t.quiet, tokens.quiet.token);
    for (const t of targets) await load(quiet(t), QUIET_C * 10, QUIET_C); // warm: spawn server, workers
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < targets.length; k++) {
        const t = targets[(r + k) % targets.length]!;
        const alone = async () => t.alone.push(...(await load(quiet(t), perPhase, QUIET_C)));
        const beside = async () => {
          let stop!: () => void;
          const stopped = new Promise<void>((res) => (stop = res));
          const started = performance.now();
          const storming = storm(() => post(t.storm, tokens.storm.token), STORM_CLIENTS, BACKOFF_MS, stopped);
          // The storm fills the lane and its queue before the quiet tenant is measured.
          await load(quiet(t), QUIET_C * 4, QUIET_C);
          t.beside.push(...(await load(quiet(t), perPhase, QUIET_C)));
          stop();
          const s = await storming;
          t.done += s.done;
          t.refused += s.refused;
          t.ms += performance.now() - started;
        };
        const phases = r % 2 === 0 ? [alone, beside] : [beside, alone];
        for (const p of phases) await p();
      }
    }
  } finally {
    for (const t of targets) {
      await Promise.all([t.quiet.close(), t.storm.close()]);
      await t.server.stop();
    }
    rmSync(dir, { recursive: true, force: true });
  }
  const rows = targets.map((t) => {
    const a = stats(t.alone);
    const b = stats(t.beside);
    const rate = (n: number) => fmt((n / t.ms) * 1000, 0);
    return {
      t,
      ratio: b.p99 / a.p99,
      row: `| ${t.label} | ${fmt(a.p50)} / ${fmt(a.p99)} | ${fmt(b.p50)} / ${fmt(b.p99)} | ${fmt(b.p99 / a.p99, 2)}× | ${rate(t.done)}/s | ${rate(t.refused)}/s |`,
    };
  });
  const mine = rows[0]!;
  return {
    title: 'serve under a retry storm (a quiet tenant beside one retrying every 429 after 50 ms)',
    markdown: [
      '| build | quiet command hook p50 / p99 alone (ms) | p50 / p99 beside the storm | p99 ratio | storm dispatches run | storm 429s answered |',
      '|---|---|---|---|---|---|',
      ...rows.map((r) => r.row),
      '',
      `The quiet tenant dispatches a \`/bin/true\` command hook at concurrency ${QUIET_C}; the storming tenant has ${STORM_CLIENTS} clients, each dispatching a \`sleep 0.2\` command hook and, when answered 429, dispatching again ${BACKOFF_MS} ms later whatever Retry-After says. Serve's defaults: no tenant limits, no rate. ${perPhaseOf(quick)} quiet dispatches per phase and build, ${quick ? 1 : 3} round(s), phases interleaved (which goes first rotates).`,
    ].join('\n'),
    goals: [
      `quiet tenant's command-hook p99 beside a retry storm ≤ 2× its p99 alone (serve defaults): ${fmt(mine.ratio, 2)}× — ${mine.ratio <= 2 ? 'met' : 'NOT met'}`,
      ...rows.slice(1).map((r) => `(${r.t.label}: ${fmt(r.ratio, 2)}×)`),
    ],
  };
}

const perPhaseOf = (quick: boolean) => (quick ? 20 : 1000).toLocaleString('en-US');
