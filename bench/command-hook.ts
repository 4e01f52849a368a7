// A `/bin/true` argv command hook dispatched end to end, against a raw child_process.spawn of
// /bin/true, interleaved in one run. Also measured, to justify the design: the runner on the main
// thread vs inside a Piscina worker, the hw-exec helper vs prlimit(1), and execa.
// Goal: p50 ≤ 1.5× raw spawn.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { Piscina } from 'piscina';
import { ProcessGroups } from '../sandbox/command/kill-group.js';
import { findWrapper } from '../sandbox/command/process-profile.js';
import { runCommand } from '../sandbox/command/run-command.js';
import { spawnTrue } from '../src/bench/baselines.js';
import type { CommandTask } from '../src/contract/command-task.js';
import { createExecutor } from '../src/index.js';
import { destroyWhenLoaded } from '../src/pool/destroy-piscina.js';
import { BENCH_INPUT, fmt, interleavedLatency, type ScenarioReport } from './harness.js';

export async function run(quick = false): Promise<ScenarioReport> {
  const scratch = mkdtempSync(join(tmpdir(), 'hw-bench-'));
  const task: CommandTask = {
    program: { kind: 'argv', argv: ['/bin/true'] },
    cwd: tmpdir(),
    scratchDir: scratch,
    env: { HOOK_EVENT: 'BeforeTool' },
    inheritEnv: [],
    stdin: '{"event":"BeforeTool"}',
    deadlineMs: 60_000,
    killGraceMs: 500,
    maxOutputBytes: 1 << 20,
    rlimits: { cpuSeconds: 0, openFiles: 1024, fileSizeBytes: 64 << 20, addressSpaceBytes: undefined },
    isolation: 'process',
    writable: false,
    runAs: undefined,
  };
  const groups = new ProcessGroups();
  const pool = new Piscina({
    filename: new URL('./workers/spawn-worker.js', import.meta.url).href,
    minThreads: 2,
    maxThreads: 2,
    idleTimeout: 60_000,
  });
  const executor = await createExecutor({
    config: { hooks: { BeforeTool: [{ hooks: [{ argv: ['/bin/true'] }] }] } },
    onWarning: () => {},
  });
  const input = BENCH_INPUT;
  try {
    const r = await interleavedLatency(
      {
        'raw spawn(/bin/true)': spawnTrue,
        'execa(/bin/true, extendEnv:false)': () =>
          execa('/bin/true', { extendEnv: false, env: { PATH: '/usr/bin:/bin' }, reject: false }),
        'runner, main thread, hw-exec helper': () =>
          runCommand(task, groups, undefined, findWrapper('hw-exec')),
        'runner, main thread, prlimit(1)': () => runCommand(task, groups, undefined, findWrapper('prlimit')),
        'runner in a Piscina worker (hw-exec)': () => pool.run(task),
        'hookwarden dispatch, end to end': () => executor.dispatch('BeforeTool', input),
      },
      { warmup: quick ? 3 : 30, iterations: quick ? 10 : 400 },
    );
    const base = r['raw spawn(/bin/true)']!.p50;
    const rows = Object.entries(r).map(
      ([name, s]) => `| ${name} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${fmt(s.p50 / base, 2)}× |`,
    );
    const ratio = r['hookwarden dispatch, end to end']!.p50 / base;
    return {
      title: 'Command hook: /bin/true end to end vs raw spawn',
      markdown: [
        '| variant | p50 ms | p90 ms | p99 ms | p50 vs raw spawn |',
        '|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
      goals: [`/bin/true hook p50 ≤ 1.5× raw spawn: ${fmt(ratio, 2)}× — ${ratio <= 1.5 ? 'met' : 'NOT met'}`],
    };
  } finally {
    await executor.close();
    await destroyWhenLoaded(pool, 2);
    groups.dispose();
    rmSync(scratch, { recursive: true, force: true });
  }
}
