// Async job throughput on Redis: one `hookwarden serve` replica against two, sharing one Redis (a
// redis-server this scenario starts on a free loopback port and stops by PID). A library executor
// that only enqueues (`queue.work: false`) makes N dispatches, each queueing one async command hook
// (`/bin/sleep 0.1`: a hook that waits on something, as a webhook or a scanner does); the replicas
// (real processes of the built CLI, `serve --queue`) run the jobs. The figure is N divided by the time
// from the first enqueue to the N-th completion event in Redis. The two variants alternate, round
// after round, each round on a prefix of its own; the medians are quoted.
// Goal: two replicas ≥ 1.6× the throughput of one, measured in one run.
//
// What it shows: jobs spread over the replicas (one replica runs `queue.concurrency`, 8, at a time).
// The hook waits rather than computes on purpose: this machine has 2 cores, so a CPU-bound hook
// would measure the cores, not the queue.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createExecutor } from '../src/index.js';
import { median } from '../src/measure/quantile.js';
import { BENCH_INPUT, fmt, type ScenarioReport } from './harness.js';
import { completions, startRedis, startReplica, stopReplica } from './redis.js';

const HOOK = { type: 'command', argv: ['/bin/sleep', '0.1'], name: 'bg', async: true };

async function measure(
  replicas: number,
  round: number,
  n: number,
  config: string,
  url: string,
): Promise<number> {
  const prefix = `bench-r${round}-x${replicas}`;
  const started = await Promise.all(
    Array.from({ length: replicas }, () => startReplica(config, url, prefix)),
  );
  const producer = await createExecutor({
    config: [config],
    onWarning: () => {},
    queue: { redis: url, prefix, work: false },
  });
  const reader = new Redis(url, { lazyConnect: false });
  try {
    const done = completions(reader, `${prefix}:events:none`, n);
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      const r = await producer.dispatch('BeforeTool', BENCH_INPUT);
      if (r.hooks[0]?.outcome !== 'queued') throw new Error(`not queued: ${JSON.stringify(r.hooks[0])}`);
    }
    return n / (((await done) - t) / 1000);
  } finally {
    reader.disconnect();
    await producer.close();
    await Promise.all(started.map(stopReplica));
  }
}

export async function run(quick = false): Promise<ScenarioReport> {
  const title = 'Async jobs on Redis: one serve replica against two';
  const redis = await startRedis();
  if (redis === undefined)
    return { title, markdown: '', goals: ['not measured: redis-server is not installed'] };
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-replicas-'));
  const config = join(dir, 'hooks.json');
  writeFileSync(config, JSON.stringify({ hooks: { BeforeTool: [{ hooks: [HOOK] }] } }));
  const n = quick ? 24 : 240;
  const rounds = quick ? 1 : 5;
  const rates: Record<1 | 2, number[]> = { 1: [], 2: [] };
  try {
    for (let round = 0; round < rounds; round++) {
      // Alternate which variant goes first, so drift hits both alike.
      for (const k of round % 2 === 0 ? ([1, 2] as const) : ([2, 1] as const))
        rates[k].push(await measure(k, round, n, config, redis.url));
    }
  } finally {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const one = median(rates[1]);
  const two = median(rates[2]);
  const row = (k: 1 | 2, label: string) =>
    `| ${label} | ${fmt(median(rates[k]), 1)} | ${fmt(Math.min(...rates[k]), 1)} – ${fmt(Math.max(...rates[k]), 1)} | ${fmt(median(rates[k]) / one, 2)}× |`;
  return {
    title,
    markdown: [
      `${rounds} rounds of ${n} jobs per variant, alternating; each job one \`/bin/sleep 0.1\` async command hook; \`queue.concurrency\` 8 per replica.`,
      '',
      '| variant | jobs/s (median) | range | vs one replica |',
      '|---|---|---|---|',
      row(1, 'one replica'),
      row(2, 'two replicas'),
    ].join('\n'),
    goals: [
      `two replicas ≥ 1.6× one replica: ${fmt(two / one, 2)}× — ${two / one >= 1.6 ? 'met' : 'NOT met'}`,
    ],
  };
}
