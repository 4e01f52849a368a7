// Async hooks: what one `async: true` hook adds to a dispatch's latency. Three executors, same
// configuration except the async hook, measured interleaved in one run: one command hook (the
// baseline); the same plus one async command hook on the in-process queue; and the same on the
// Redis queue (a redis-server this scenario starts on a free loopback port and stops by PID; the
// row is left out when redis-server is not installed). The async runs happen in the background
// of the following dispatches, as they would in production: their CPU is part of the figure.
// Goals: embedded p50 ≤ 1.2× the baseline; Redis mode adds ≤ 1 ms p50 over the embedded one.
import { createExecutor, type Executor } from '../src/index.js';
import { BENCH_INPUT, fmt, interleavedLatency, type ScenarioReport } from './harness.js';
import { startRedis } from './redis.js';

const sync = { type: 'command', argv: ['/bin/echo', '{}'], name: 'sync' };
const background = { type: 'command', argv: ['/bin/echo', '{}'], name: 'bg', async: true };
const config = (hooks: object[]) => ({ hooks: { BeforeTool: [{ hooks }] } });
// No refusal may make the async variant look cheaper than it is.
const limits = { maxAsyncQueued: 1_000_000 };

export async function run(quick = false): Promise<ScenarioReport> {
  const redis = await startRedis();
  const executors: Executor[] = [];
  const make = async (hooks: object[], queue?: object) => {
    const e = await createExecutor({
      config: config(hooks),
      limits,
      onWarning: () => {},
      ...(queue ? { queue } : {}),
    });
    executors.push(e);
    return e;
  };
  try {
    const base = await make([sync]);
    const embedded = await make([sync, background]);
    const viaRedis =
      redis === undefined ? undefined : await make([sync, background], { redis: redis.url, prefix: 'bench' });
    let refused = 0;
    const counted = (e: Executor) => async () => {
      const r = await e.dispatch('BeforeTool', BENCH_INPUT);
      if (r.hooks.some((h) => h.outcome !== 'queued' && h.id === 'bg')) refused++;
    };
    const variants: Record<string, () => Promise<unknown>> = {
      'one command hook (baseline)': () => base.dispatch('BeforeTool', BENCH_INPUT),
      '+ one async hook, in-process queue': counted(embedded),
      ...(viaRedis === undefined ? {} : { '+ one async hook, Redis queue': counted(viaRedis) }),
    };
    const lat = await interleavedLatency(variants, { warmup: quick ? 3 : 50, iterations: quick ? 10 : 600 });
    const b = lat['one command hook (baseline)']!.p50;
    const e = lat['+ one async hook, in-process queue']!.p50;
    const r = lat['+ one async hook, Redis queue']?.p50;
    const rows = Object.entries(lat).map(
      ([k, s]) => `| ${k} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${fmt(s.p50 / b, 2)}× |`,
    );
    const goals = [
      `embedded async hook p50 ≤ 1.2× without it: ${fmt(e / b, 2)}× — ${e / b <= 1.2 ? 'met' : 'NOT met'}`,
    ];
    if (r !== undefined)
      goals.push(
        `Redis mode adds ≤ 1 ms p50 over embedded: ${fmt(r - e)} ms — ${r - e <= 1 ? 'met' : 'NOT met'}`,
      );
    else goals.push('Redis mode: not measured (redis-server is not installed)');
    if (refused > 0)
      goals.push(`WARNING: ${refused} async hooks were not queued (the figures are not comparable)`);
    return {
      title: 'Async hook: dispatch with and without one background hook',
      markdown: [
        '| variant | p50 ms | p90 ms | p99 ms | p50 vs baseline |',
        '|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
      goals,
    };
  } finally {
    // Drain: the async runs still queued finish before the pools close (nothing outlives the bench).
    for (const e of executors) await e.close({ drainMs: 60_000 });
    await redis?.stop();
  }
}
