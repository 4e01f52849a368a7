// A `/bin/true` argv command hook dispatched end to end, against a raw child_process.spawn of
// /bin/true, interleaved in one run. Also measured: the runner alone through each launcher (the
// spawn server; Node's spawn through the hw-exec helper or prlimit(1)), execa, and the dispatch of
// each build (bench/builds.ts: the spawn server, the Node-spawn fallback, a before build).
// Goal: p50 ≤ 1.0× raw spawn (stretch 0.7×).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { ProcessGroups } from '../sandbox/command/kill-group.js';
import type { Launcher } from '../sandbox/command/launch.js';
import { findNativeHelper } from '../sandbox/command/native-helper.js';
import { NodeSpawnLauncher } from '../sandbox/command/node-launcher.js';
import { runCommand } from '../sandbox/command/run-command.js';
import { SpawnServer } from '../sandbox/command/spawn-server.js';
import { findWrapper } from '../sandbox/command/wrapper.js';
import type { CommandTask } from '../src/contract/command-task.js';
import type { Executor } from '../src/index.js';
import { spawnTrue } from '../src/measure/baselines.js';
import { builds } from './builds.js';
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
    containment: 'prefer',
    writable: false,
    runAs: undefined,
  };
  const groups = new ProcessGroups();
  const server = findNativeHelper('hw-spawn-server');
  const launchers: Record<string, Launcher> = {
    ...(server === undefined ? {} : { 'runner, spawn server': new SpawnServer(server) }),
    'runner, Node spawn + hw-exec': new NodeSpawnLauncher(findWrapper('hw-exec')),
    'runner, Node spawn + prlimit(1)': new NodeSpawnLauncher(findWrapper('prlimit')),
  };
  const executors: [string, Executor][] = [];
  for (const b of await builds()) {
    const executor = await b.create({
      config: { hooks: { BeforeTool: [{ hooks: [{ argv: ['/bin/true'] }] }] } },
      onWarning: () => {},
    });
    executors.push([`hookwarden dispatch, ${b.label}`, executor]);
  }
  const input = BENCH_INPUT;
  try {
    const r = await interleavedLatency(
      {
        'raw spawn(/bin/true)': spawnTrue,
        'execa(/bin/true, extendEnv:false)': () =>
          execa('/bin/true', { extendEnv: false, env: { PATH: '/usr/bin:/bin' }, reject: false }),
        ...Object.fromEntries(
          Object.entries(launchers).map(([name, l]) => [name, () => runCommand(task, groups, undefined, l)]),
        ),
        ...Object.fromEntries(executors.map(([name, e]) => [name, () => e.dispatch('BeforeTool', input)])),
      },
      { warmup: quick ? 3 : 30, iterations: quick ? 10 : 400 },
    );
    const base = r['raw spawn(/bin/true)']!.p50;
    const rows = Object.entries(r).map(
      ([name, s]) => `| ${name} | ${fmt(s.p50)} | ${fmt(s.p90)} | ${fmt(s.p99)} | ${fmt(s.p50 / base, 2)}× |`,
    );
    const ratio = r[executors[0]![0]]!.p50 / base;
    return {
      title: 'Command hook: /bin/true end to end vs raw spawn',
      markdown: [
        '| variant | p50 ms | p90 ms | p99 ms | p50 vs raw spawn |',
        '|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
      goals: [
        `/bin/true hook p50 ≤ 1.0× raw spawn (stretch 0.7×): ${fmt(ratio, 2)}× — ${ratio <= 0.7 ? 'met, stretch too' : ratio <= 1 ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    for (const [, e] of executors) await e.close();
    for (const l of Object.values(launchers)) await l.close();
    groups.dispose();
    rmSync(scratch, { recursive: true, force: true });
  }
}
