// A JS hook's latency while command hooks run next to it, on one executor. Per build (bench/builds.ts:
// the spawn server, the Node-spawn fallback, a before build), three phases in every round, rotating
// the order: the JS hook dispatched alone, one dispatch at a time; the same while 8 loops dispatch a
// /bin/true command hook from the same tenant; and while they dispatch it from another tenant.
// Reported: JS p50/p99 per phase and as ratios to alone, the command hooks' rate, and the main
// thread's event-loop utilisation (perf_hooks) during the mixed phases.
// Goals (spawn server): JS p50 under the mixed load ≤ 2× alone, p99 ≤ 3× alone.
import { type EventLoopUtilization, performance } from 'node:perf_hooks';
import type { Executor } from '../src/index.js';
import { TRIVIAL_HOOK } from '../src/measure/baselines.js';
import { median } from '../src/measure/quantile.js';
import { type Build, builds } from './builds.js';
import { BENCH_INPUT, fmt, fmtRate, type ScenarioReport, stats } from './harness.js';

const input = BENCH_INPUT;
const COMMAND_LOOPS = 8;
const tenantConfig = {
  hooks: {
    BeforeTool: [{ hooks: [{ type: 'js', code: TRIVIAL_HOOK }] }],
    AfterTool: [{ hooks: [{ type: 'command', argv: ['/bin/true'] }] }],
  },
};
const PHASES = ['alone', 'same tenant', 'two tenants'] as const;
type Phase = (typeof PHASES)[number];

interface PhaseSamples {
  js: number[];
  commands: number;
  commandMs: number;
  elu: EventLoopUtilization[];
}

/** One phase: `jsDispatches` JS dispatches in sequence, with the command loops running or not. */
async function phase(executor: Executor, which: Phase, jsDispatches: number, into: PhaseSamples) {
  let running = which !== 'alone';
  let commands = 0;
  const commandTenant = which === 'two tenants' ? 'b' : 'a';
  const loop = async () => {
    while (running) {
      await executor.dispatch('AfterTool', input, { tenant: commandTenant });
      commands++;
    }
  };
  const loops = running ? Array.from({ length: COMMAND_LOOPS }, loop) : [];
  const eluStart = performance.eventLoopUtilization();
  const t0 = performance.now();
  for (let i = 0; i < jsDispatches; i++) {
    const t = performance.now();
    const r = await executor.dispatch('BeforeTool', input, { tenant: 'a' });
    into.js.push(performance.now() - t);
    if (r.decision !== 'allow') throw new Error(`JS hook answered ${r.decision}: ${JSON.stringify(r.hooks)}`);
  }
  into.elu.push(performance.eventLoopUtilization(eluStart));
  into.commandMs += performance.now() - t0;
  running = false;
  await Promise.all(loops);
  into.commands += commands;
}

export async function run(quick = false): Promise<ScenarioReport> {
  const list = await builds();
  const executors = new Map<Build, Executor>();
  const samples = new Map<Build, Record<Phase, PhaseSamples>>();
  const jsDispatches = quick ? 20 : 600;
  const rounds = quick ? 1 : 3;
  try {
    for (const b of list) {
      const executor = await b.create({
        config: { tenants: { a: tenantConfig, b: tenantConfig } },
        onWarning: () => {},
      });
      executors.set(b, executor);
      const empty = (): PhaseSamples => ({ js: [], commands: 0, commandMs: 0, elu: [] });
      samples.set(b, { alone: empty(), 'same tenant': empty(), 'two tenants': empty() });
      // Warm-up: workers loaded, the spawn server started, the scratch root made.
      await phase(executor, 'same tenant', 20, empty());
    }
    const steps = list.flatMap((b) => PHASES.map((p) => ({ b, p })));
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < steps.length; k++) {
        const { b, p } = steps[(r * PHASES.length + k) % steps.length]!;
        await phase(executors.get(b)!, p, jsDispatches, samples.get(b)![p]);
      }
    }
  } finally {
    for (const e of executors.values()) await e.close();
  }
  const rows: string[] = [];
  const goals: string[] = [];
  for (const b of list) {
    const s = samples.get(b)!;
    const alone = stats(s.alone.js);
    for (const p of PHASES) {
      const st = stats(s[p].js);
      const medianElu = median(s[p].elu.map((e) => e.utilization));
      const rate = p === 'alone' ? '–' : fmtRate(s[p].commands / (s[p].commandMs / 1000));
      rows.push(
        `| ${b.label} | ${p} | ${fmt(st.p50)} | ${fmt(st.p99)} | ${fmt(st.p50 / alone.p50, 2)}× | ${fmt(st.p99 / alone.p99, 2)}× | ${rate} | ${fmt(medianElu, 2)} |`,
      );
      if (b === list[0] && p !== 'alone') {
        const p50 = st.p50 / alone.p50;
        const p99 = st.p99 / alone.p99;
        goals.push(
          `${b.label}, ${p}: JS p50 ≤ 2× alone: ${fmt(p50, 2)}× — ${p50 <= 2 ? 'met' : 'NOT met'}; p99 ≤ 3× alone: ${fmt(p99, 2)}× — ${p99 <= 3 ? 'met' : 'NOT met'}`,
        );
      }
    }
  }
  return {
    title: 'Mixed load: a JS hook while 8 loops dispatch command hooks',
    markdown: [
      `One executor per build (2 QuickJS threads); per phase ${jsDispatches} JS dispatches in sequence from tenant a, with ${COMMAND_LOOPS} loops dispatching a /bin/true command hook from tenant a (same tenant) or b (two tenants), or none (alone); ${rounds} round(s), phases and builds interleaved. ELU: the main thread's event-loop utilisation during the phase (median of rounds). Reproduce: \`npm run bench -- mixed-load\`, with \`HOOKWARDEN_BENCH_BEFORE=<another checkout>/bin/hookwarden\` (built) for its rows; profile one build's main thread with \`HOOKWARDEN_BENCH_ONLY='<build>' node --cpu-prof dist/bench/run-all.js mixed-load\` and \`node dist/bench/cpuprofile-summary.js <file>\`.`,
      '',
      '| build | phase | JS p50 ms | JS p99 ms | p50 vs alone | p99 vs alone | command hooks/s | ELU |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
    goals,
  };
}
