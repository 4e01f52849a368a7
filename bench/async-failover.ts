// Failover of async jobs on Redis: how long after a replica is SIGKILLed its running jobs run on
// another replica, and what the lock that decides it costs in Redis commands. A redis-server started
// on a free loopback port (stopped by PID); real `hookwarden serve` replicas of this build and, when
// HOOKWARDEN_BENCH_BEFORE names a built checkout's bin/hookwarden, of that build, in alternating
// rounds. Each round: a producer (library, `queue.work: false`) queues 8 async command hooks; the
// victim replica takes all 8 (its `queue.concurrency`); a second replica is started; the victim is
// SIGKILLed, then a flag file is created (a hook that finds it ends at once, so the second replica's
// run costs milliseconds); the figure is the time from the kill to the 8th
// completion event in Redis. Redis commands are counted with INFO commandstats (INFO itself left out).
// Goal: ≤ 10 s.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createExecutor, type Executor } from '../src/index.js';
import { BENCH_INPUT, fmt, type ScenarioReport } from './harness.js';
import { startRedis, startReplica, stopReplica, completions as waitFor } from './redis.js';

const JOBS = 8;
/** Window over which a replica holding its 8 running jobs is watched (lock renewals, stall checks). */
const HOLD_MS = 30_000;
/** Short jobs whose Redis commands are counted, per build and round. */
const SHORT_JOBS = 50;

/**
 * Every command Redis ran so far, INFO left out (commands that Lua scripts call count too, as Redis
 * counts them), and of them the script calls (EVALSHA/EVAL: one round trip each).
 */
async function commands(client: Redis): Promise<{ all: number; scripts: number }> {
  const text = await client.info('commandstats');
  let all = 0;
  let scripts = 0;
  for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if (m[1] === 'info') continue;
    all += Number(m[2]);
    if (m[1] === 'evalsha' || m[1] === 'eval') scripts += Number(m[2]);
  }
  return { all, scripts };
}

const per = (a: { all: number; scripts: number }, b: { all: number; scripts: number }, by: number) => ({
  all: (b.all - a.all) / by,
  scripts: (b.scripts - a.scripts) / by,
});

/**
 * Resolves once `count` async.completed events are in `key`, with the time of the last. On a
 * connection of its own: a blocked XREAD holds every later command of its connection.
 */
async function completions(url: string, key: string, count: number): Promise<number> {
  const client = new Redis(url);
  try {
    return await waitFor(client, key, count, 120_000);
  } finally {
    client.disconnect();
  }
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (;;) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function queue(producer: Executor, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await producer.dispatch('BeforeTool', BENCH_INPUT);
    if (r.hooks[0]?.outcome !== 'queued') throw new Error(`not queued: ${JSON.stringify(r.hooks[0])}`);
  }
}

interface Round {
  failoverMs: number;
  holdPerSec: { all: number; scripts: number };
  perJob: { all: number; scripts: number };
}

async function round(bin: string | undefined, tag: string, dir: string, url: string): Promise<Round> {
  const flag = join(dir, `go-${tag}`);
  const waiting = join(dir, `waiting-${tag}.json`);
  const short = join(dir, `short-${tag}.json`);
  const hook = (command: string) => ({
    hooks: { BeforeTool: [{ hooks: [{ name: 'bg', async: true, command }] }] },
  });
  // Before the flag exists (on the victim) the hook sleeps until killed with its replica (the spawn
  // server's hooks die with it); after (on the other replica) it ends at once.
  writeFileSync(waiting, JSON.stringify(hook(`test -e '${flag}' || exec /bin/sleep 3600`)));
  writeFileSync(short, JSON.stringify(hook('true')));
  const prefix = `failover-${tag}`;
  const reader = new Redis(url);
  const producer = await createExecutor({
    config: [waiting],
    onWarning: () => {},
    queue: { redis: url, prefix, work: false },
  });
  const replicas = [await startReplica(waiting, url, prefix, bin)];
  try {
    const done = completions(url, `${prefix}:events:none`, JOBS);
    await queue(producer, JOBS);
    await until(async () => (await reader.llen(`${prefix}:async-hooks:active`)) === JOBS);
    // The victim alone, holding its running jobs: its lock renewals and stall checks.
    const before = await commands(reader);
    await new Promise((r) => setTimeout(r, HOLD_MS));
    const holdPerSec = per(before, await commands(reader), HOLD_MS / 1000);
    replicas.push(await startReplica(waiting, url, prefix, bin));
    const t = performance.now();
    replicas[0]!.kill('SIGKILL');
    writeFileSync(flag, '');
    const failoverMs = (await done) - t;

    // Commands per job: short jobs end to end (queue, take, run, complete) on the surviving replica.
    const shortPrefix = `${prefix}-short`;
    const shortProducer = await createExecutor({
      config: [short],
      onWarning: () => {},
      queue: { redis: url, prefix: shortPrefix, work: false },
    });
    const worker = await startReplica(short, url, shortPrefix, bin);
    try {
      const shortDone = completions(url, `${shortPrefix}:events:none`, SHORT_JOBS);
      const c0 = await commands(reader);
      await queue(shortProducer, SHORT_JOBS);
      await shortDone;
      const perJob = per(c0, await commands(reader), SHORT_JOBS);
      return { failoverMs, holdPerSec, perJob };
    } finally {
      await shortProducer.close();
      await stopReplica(worker);
    }
  } finally {
    if (!existsSync(flag)) writeFileSync(flag, '');
    reader.disconnect();
    await producer.close();
    await Promise.all(replicas.map(stopReplica));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(quick = false): Promise<ScenarioReport> {
  const title = 'Async jobs on Redis: failover after a replica is SIGKILLed';
  const redis = await startRedis();
  if (redis === undefined)
    return { title, markdown: '', goals: ['not measured: redis-server is not installed'] };
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-failover-'));
  const beforeBin = process.env.HOOKWARDEN_BENCH_BEFORE || undefined;
  const builds: { label: string; bin: string | undefined }[] = [{ label: 'this build', bin: undefined }];
  if (beforeBin !== undefined)
    builds.push({ label: process.env.HOOKWARDEN_BENCH_BEFORE_LABEL ?? 'before', bin: beforeBin });
  const rounds = quick ? 1 : 3;
  const results = new Map<string, Round[]>(builds.map((b) => [b.label, []]));
  try {
    for (let r = 0; r < rounds; r++)
      for (let k = 0; k < builds.length; k++) {
        const b = builds[(r + k) % builds.length]!;
        results.get(b.label)!.push(await round(b.bin, `${r}-${k}`, dir, redis.url));
      }
  } finally {
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const rows = builds.map((b) => {
    const rs = results.get(b.label)!;
    const f = rs.map((x) => x.failoverMs / 1000);
    const m = (pick: (x: Round) => number, digits: number) => fmt(median(rs.map(pick)), digits);
    return `| ${b.label} | ${fmt(median(f), 2)} | ${fmt(Math.min(...f), 2)} – ${fmt(Math.max(...f), 2)} | ${m((x) => x.holdPerSec.all, 2)} (${m((x) => x.holdPerSec.scripts, 2)}) | ${m((x) => x.perJob.all, 1)} (${m((x) => x.perJob.scripts, 1)}) |`;
  });
  const mine = median(results.get('this build')!.map((x) => x.failoverMs / 1000));
  return {
    title,
    markdown: [
      `${rounds} round(s) per build, alternating. ${JOBS} async command hooks held by the victim replica, then SIGKILL; the time is from the kill to the ${JOBS}th completion (run by the other replica). Commands are Redis's own count (INFO commandstats: the commands Lua scripts run count too; in brackets the script calls, one round trip each); the bench's own XREADs of the completion stream are in the per-job count (at most one per completion).`,
      '',
      `| build | failover s (median) | range | Redis commands/s, one replica holding ${JOBS} running jobs (${HOLD_MS / 1000} s) | Redis commands per short job (queue to completion, ${SHORT_JOBS} jobs) |`,
      '|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
    goals: [
      `a SIGKILLed replica's jobs run on another within 10 s: ${fmt(mine, 2)} s — ${mine <= 10 ? 'met' : 'NOT met'}`,
    ],
  };
}
