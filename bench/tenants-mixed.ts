// 4 tenants dispatching a mix of JS and command hooks at once through one executor: t1 a JS hook,
// t2 a /bin/true command hook, t3 a serial chain of both, t4 a rotation of the three. Baseline in
// the same run: each tenant's workload alone. Rounds interleave the mixed load with the solo runs
// (rotating the order), for each build of bench/builds.ts (the spawn server, the Node-spawn
// fallback, a before build); reported per build and tenant: p50/p99 mixed and alone, and overall
// throughput.

import type { Executor } from '../src/index.js';
import { TRIVIAL_HOOK } from '../src/measure/baselines.js';
import { median } from '../src/measure/quantile.js';
import { type Build, builds } from './builds.js';
import { BENCH_INPUT, fmt, fmtRate, type ScenarioReport, stats } from './harness.js';

const input = BENCH_INPUT;
const js = { type: 'js', code: TRIVIAL_HOOK };
const command = { type: 'command', argv: ['/bin/true'] };
const config = {
  hooks: {
    BeforeTool: [{ hooks: [js] }],
    AfterTool: [{ hooks: [command] }],
    BeforeTurn: [{ hooks: [js, command] }],
  },
};

/** Each tenant's workload: the events it dispatches, in rotation. */
const TENANTS: Record<string, { label: string; events: string[] }> = {
  t1: { label: 'JS hook', events: ['BeforeTool'] },
  t2: { label: 'command hook', events: ['AfterTool'] },
  t3: { label: 'JS + command chain', events: ['BeforeTurn'] },
  t4: { label: 'rotation of the three', events: ['BeforeTool', 'AfterTool', 'BeforeTurn'] },
};
const NAMES = Object.keys(TENANTS);
const LANES_PER_TENANT = 4;

/** Runs `dispatches` of a tenant's workload, LANES_PER_TENANT at a time; pushes latencies. */
async function tenantLoad(executor: Executor, tenant: string, dispatches: number, out: number[]) {
  const { events } = TENANTS[tenant]!;
  let next = 0;
  const lane = async () => {
    while (next < dispatches) {
      const event = events[next++ % events.length]!;
      const t = performance.now();
      await executor.dispatch(event, input, { tenant });
      out.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: LANES_PER_TENANT }, lane));
}

interface Samples {
  mixed: Record<string, number[]>;
  solo: Record<string, number[]>;
  mixedRates: number[];
  /** Each tenant's own rate in the mixed phase: its dispatches over the time it took to finish them. */
  tenantRates: Record<string, number[]>;
}

const perTenant = () => Object.fromEntries(NAMES.map((n) => [n, [] as number[]]));

/** The steps of one round for one build: the mixed load, then each tenant alone. */
function stepsOf(executor: Executor, s: Samples, dispatches: number): (() => Promise<void>)[] {
  return [
    async () => {
      const t = performance.now();
      await Promise.all(
        NAMES.map(async (n) => {
          await tenantLoad(executor, n, dispatches, s.mixed[n]!);
          s.tenantRates[n]!.push(dispatches / ((performance.now() - t) / 1000));
        }),
      );
      s.mixedRates.push((NAMES.length * dispatches) / ((performance.now() - t) / 1000));
    },
    ...NAMES.map((n) => () => tenantLoad(executor, n, dispatches, s.solo[n]!)),
  ];
}

export async function run(quick = false): Promise<ScenarioReport> {
  const list = await builds();
  const executors = new Map<Build, Executor>();
  const samples = new Map<Build, Samples>();
  const dispatches = quick ? 12 : 1000;
  const rounds = quick ? 1 : 3;
  try {
    for (const b of list) {
      const executor = await b.create({
        config: { tenants: Object.fromEntries(NAMES.map((n) => [n, config])) },
        onWarning: () => {},
      });
      executors.set(b, executor);
      samples.set(b, { mixed: perTenant(), solo: perTenant(), mixedRates: [], tenantRates: perTenant() });
      for (const n of NAMES) await tenantLoad(executor, n, LANES_PER_TENANT * 2, []); // warm-up
    }
    const steps = list.flatMap((b) => stepsOf(executors.get(b)!, samples.get(b)!, dispatches));
    for (let r = 0; r < rounds; r++)
      for (let k = 0; k < steps.length; k++) await steps[(r * (NAMES.length + 1) + k) % steps.length]!();
  } finally {
    for (const e of executors.values()) await e.close();
  }
  const rows: string[] = [];
  const overall: string[] = [];
  const goals: string[] = [];
  for (const b of list) {
    const s = samples.get(b)!;
    for (const n of NAMES) {
      const m = stats(s.mixed[n]!);
      const a = stats(s.solo[n]!);
      rows.push(
        `| ${b.label} | ${n}: ${TENANTS[n]!.label} | ${fmtRate(median(s.tenantRates[n]!))} | ${fmt(m.p50)} | ${fmt(m.p99)} | ${fmt(a.p50)} | ${fmt(a.p99)} | ${fmt(m.p50 / a.p50, 2)}× |`,
      );
    }
    overall.push(`${b.label} ${fmtRate(median(s.mixedRates))}/s`);
    const worst = Math.max(...NAMES.map((n) => stats(s.mixed[n]!).p50 / stats(s.solo[n]!).p50));
    const t1 = stats(s.mixed.t1!).p50 / stats(s.solo.t1!).p50;
    goals.push(
      `${b.label}: largest p50 slowdown of a tenant under the mixed load ${fmt(worst, 2)}×; the JS-only tenant's ${fmt(t1, 2)}× (reported, no goal)`,
    );
  }
  return {
    title: '4 tenants, mixed JS and command load',
    markdown: [
      `${NAMES.length} tenants × ${LANES_PER_TENANT} dispatches in flight, ${dispatches.toLocaleString('en-US')} dispatches per tenant per round, ${rounds} round(s), builds interleaved; "alone" is the same tenant's workload with the others idle, in the same rounds.`,
      '',
      '| build | tenant | dispatches/s mixed | p50 ms mixed | p99 ms mixed | p50 ms alone | p99 ms alone | p50 mixed vs alone |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `Overall throughput under the mixed load (median of rounds): ${overall.join(', ')}; a tenant's own rate is its dispatches over the time it took to finish them while the others ran. With Node's spawn, \`fork()\` of the whole Node process blocks the main thread ~1 ms per command hook (far more under load), and with command tenants busy the main thread is saturated: that is most of the JS tenant's slowdown. The spawn server takes the fork off the main thread (a hook's start is one message).`,
    ].join('\n'),
    goals,
  };
}
