// 4 tenants dispatching a mix of JS and command hooks at once through one executor: t1 a JS hook,
// t2 a /bin/true command hook, t3 a serial chain of both, t4 a rotation of the three. Baseline in
// the same run: each tenant's workload alone. Rounds interleave the mixed load with the solo runs
// (rotating the order); reported per tenant: p50/p99 mixed and alone, and overall throughput.
import { TRIVIAL_HOOK } from '../src/bench/baselines.js';
import { createExecutor, type Executor } from '../src/index.js';
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

export async function run(quick = false): Promise<ScenarioReport> {
  const executor = await createExecutor({
    config: { tenants: Object.fromEntries(Object.keys(TENANTS).map((n) => [n, config])) },
    onWarning: () => {},
  });
  const names = Object.keys(TENANTS);
  const dispatches = quick ? 12 : 1500;
  const rounds = quick ? 1 : 3;
  const mixed: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const solo: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  const mixedRates: number[] = [];
  /** Each tenant's own rate in the mixed phase: its dispatches over the time it took to finish them. */
  const tenantRates: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  try {
    for (const n of names) await tenantLoad(executor, n, LANES_PER_TENANT * 2, []); // warm-up
    const steps: (() => Promise<void>)[] = [
      async () => {
        const t = performance.now();
        await Promise.all(
          names.map(async (n) => {
            await tenantLoad(executor, n, dispatches, mixed[n]!);
            tenantRates[n]!.push(dispatches / ((performance.now() - t) / 1000));
          }),
        );
        mixedRates.push((names.length * dispatches) / ((performance.now() - t) / 1000));
      },
      ...names.map((n) => () => tenantLoad(executor, n, dispatches, solo[n]!)),
    ];
    for (let r = 0; r < rounds; r++)
      for (let k = 0; k < steps.length; k++) await steps[(r + k) % steps.length]!();
  } finally {
    await executor.close();
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rate = median(mixedRates);
  const rows = names.map((n) => {
    const m = stats(mixed[n]!);
    const s = stats(solo[n]!);
    return `| ${n}: ${TENANTS[n]!.label} | ${fmtRate(median(tenantRates[n]!))} | ${fmt(m.p50)} | ${fmt(m.p99)} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${fmt(m.p50 / s.p50, 2)}× |`;
  });
  const worst = Math.max(...names.map((n) => stats(mixed[n]!).p50 / stats(solo[n]!).p50));
  return {
    title: '4 tenants, mixed JS and command load',
    markdown: [
      `${names.length} tenants × ${LANES_PER_TENANT} dispatches in flight, ${dispatches.toLocaleString('en-US')} dispatches per tenant per round, ${rounds} round(s); "alone" is the same tenant's workload with the others idle, in the same rounds.`,
      '',
      '| tenant | dispatches/s mixed | p50 ms mixed | p99 ms mixed | p50 ms alone | p99 ms alone | p50 mixed vs alone |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `Overall throughput under the mixed load: ${fmtRate(rate)} dispatches/s (median of rounds); a tenant's own rate is its dispatches over the time it took to finish them while the others ran. Command hooks are spawned on the main thread, where \`fork()\` inside \`child_process.spawn\` blocks ~1 ms per process: with command tenants busy the main thread is saturated, which is most of the JS tenant's slowdown (moving spawns off the main thread is the known next step).`,
    ].join('\n'),
    goals: [`largest p50 slowdown of a tenant under the mixed load: ${fmt(worst, 2)}× (reported, no goal)`],
  };
}
