// CPU per `/bin/true` command hook, the whole process tree (this process, the spawn server and the
// hooks: user + system time, children reaped included), for each way of sandboxing it: contained
// process mode, namespace mode prepared once (root), the same plan built by each hook (the spawn
// server compiled here with -DHW_BUILD_PER_HOOK: an unprivileged hookwarden's way), and bubblewrap
// (HOOKWARDEN_NAMESPACE=bwrap). CPU rather than time: it moves less with the machine's load.
// Each variant runs in its own fresh server, one after the other, `rounds` times; medians are given.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBwrap } from '../sandbox/command/bwrap-profile.js';
import { ProcessGroups } from '../sandbox/command/kill-group.js';
import { namespaceSupport, snapshotEtc } from '../sandbox/command/namespace-profile.js';
import { findNativeHelper } from '../sandbox/command/native-helper.js';
import { runCommand } from '../sandbox/command/run-command.js';
import { SpawnServer } from '../sandbox/command/spawn-server.js';
import type { CommandTask } from '../src/contract/command-task.js';
import { fmt, type ScenarioReport } from './harness.js';

const NATIVE = fileURLToPath(new URL('../../sandbox/native/', import.meta.url));
const SOURCES = [
  'server',
  'hello',
  'relay',
  'start',
  'child',
  'contain',
  'ns',
  'template',
  'mounts',
  'copy',
  'cap',
  'landlock',
  'exec',
  'wire',
];

/** This process's CPU seconds, its reaped children's included. */
function cpu(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
}

function perHookServer(dir: string): string | undefined {
  const out = join(dir, 'hw-spawn-server-per-hook');
  const r = spawnSync('cc', [
    '-O2',
    '-DHW_BUILD_PER_HOOK',
    '-o',
    out,
    ...SOURCES.map((s) => join(NATIVE, `spawn-${s}.c`)),
  ]);
  if (r.status === 0) return out;
  // Said, not silent: the row is missing for a reason.
  console.warn(`namespace-cpu: the per-hook server did not build: ${String(r.stderr).trim()}`);
  return undefined;
}

export async function run(quick = false): Promise<ScenarioReport> {
  const server = findNativeHelper('hw-spawn-server');
  const ns = namespaceSupport('native');
  if (server === undefined || !ns.ok)
    return { title: 'CPU per namespace hook', markdown: 'Not measured: no namespace mode here.', goals: [] };
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-cpu-'));
  snapshotEtc(join(dir, 'etc'));
  const groups = new ProcessGroups();
  const task = (isolation: 'process' | 'namespace'): CommandTask => ({
    program: { kind: 'argv', argv: ['/bin/true'] },
    cwd: dir,
    scratchDir: mkdtempSync(join(dir, 's-')),
    env: { HOOK_EVENT: 'bench' },
    inheritEnv: [],
    stdin: '{}',
    deadlineMs: 10_000,
    killGraceMs: 200,
    maxOutputBytes: 65536,
    isolation,
    containment: 'prefer',
    writable: false,
    runAs: undefined,
    rlimits: { cpuSeconds: 0, openFiles: 256, fileSizeBytes: 1 << 20, addressSpaceBytes: undefined },
    etcDir: join(dir, 'etc'),
  });
  const perHook = perHookServer(dir);
  type Row = [string, string, 'process' | 'namespace', ReturnType<typeof namespaceSupport> | undefined];
  const variants: Row[] = [
    ['contained', server, 'process', undefined],
    ['namespace, prepared once (root)', server, 'namespace', ns],
  ];
  if (perHook !== undefined) variants.push(['namespace, built per hook', perHook, 'namespace', ns]);
  if (findBwrap().ok)
    variants.push(['namespace, bubblewrap', server, 'namespace', namespaceSupport('bwrap')]);
  const n = quick ? 20 : 300;
  const rounds = quick ? 1 : 5;
  const per: Record<string, number[]> = Object.fromEntries(variants.map(([k]) => [k, []]));
  try {
    for (let r = 0; r < rounds; r++) {
      for (const [name, path, isolation, support] of variants) {
        const launcher = new SpawnServer(path);
        const t0 = cpu();
        for (let i = 0; i < n; i++) {
          const t = task(isolation);
          const o = await runCommand(
            t,
            groups,
            undefined,
            launcher,
            support === undefined ? {} : { namespace: support },
          );
          rmSync(t.scratchDir, { recursive: true, force: true });
          if (o.kind !== 'exited' || o.exitCode !== 0) throw new Error(`${name}: ${JSON.stringify(o)}`);
        }
        await launcher.close();
        per[name]!.push(((cpu() - t0) / n) * 1000);
      }
    }
  } finally {
    groups.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
  const base = median(per.contained!);
  return {
    title: 'CPU per namespace hook',
    markdown: [
      `${n} \`/bin/true\` hooks per variant and round, ${rounds} rounds, each in a fresh spawn server; CPU of the whole process tree.`,
      '',
      '| variant | CPU ms per hook (median of rounds) | vs contained |',
      '|---|---|---|',
      ...variants.map(([k]) => `| ${k} | ${fmt(median(per[k]!))} | ${fmt(median(per[k]!) / base, 2)}× |`),
    ].join('\n'),
    goals: [],
  };
}
