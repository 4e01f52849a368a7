// hookwarden-client (issue 25): the exact command `claude-code install --write` puts in a settings
// file, run as Claude Code runs a command hook (a fresh `/bin/sh -c <command>`, the input piped),
// its daemon warm. Baselines in the same interleaved rounds: the hook alone (`sh -c /bin/true`), the
// same JS guard as a plain Claude Code hook (`sh -c 'node guard.cjs'`), today's Node adapter in
// process (the install's Node words), and `node -e 0`. The first call with no daemon (it answers in
// process and starts one) runs on a configuration of its own, whose daemon is stopped before each of
// its calls and once it is up after each (its start-up must not load the other variants' rounds).
// The client's own CPU time comes from `perf stat -e task-clock` where perf runs.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { askDaemon } from '../src/cli/claude-code/daemon/control.js';
import { median } from '../src/measure/quantile.js';
import { fmt, machine, runProcess, type ScenarioReport, type Stats, stats } from './harness.js';

const BIN = fileURLToPath(new URL('../../bin/hookwarden', import.meta.url));

const GUARD_JS = `export default (i) => (i.toolInput.file_path.endsWith('.env') ? { decision: 'deny', reason: 'no' } : {})`;
/** The same guard as a plain Claude Code command hook in Node. */
const GUARD_CJS = `let s='';process.stdin.on('data',(d)=>(s+=d)).on('end',()=>{const i=JSON.parse(s);if(i.tool_input.file_path.endsWith('.env')){process.stderr.write('no');process.exit(2)}})`;

const V = {
  node: 'node -e 0',
  hook: 'the hook alone: sh -c /bin/true',
  nodeGuard: 'the JS guard as a plain Claude Code hook: sh -c "node guard.cjs"',
  inProcess: 'today: the Node adapter in process, one /bin/true hook',
  oneHook: 'client, daemon warm: one /bin/true command hook',
  jsGuard: 'client, daemon warm: one JS guard',
  noMatch: 'client, daemon warm: no hook matches',
  first: 'client, no daemon (first call): one /bin/true hook',
} as const;

function event(dir: string, tool: string, input: object): string {
  return JSON.stringify({
    session_id: 'bench',
    transcript_path: join(dir, 't.jsonl'),
    cwd: dir,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: input,
    tool_use_id: 'toolu_bench',
  });
}

/**
 * A project with a Bash hook and an Edit guard, installed (the adapter's matcher is `Bash|Edit`);
 * returns the command install wrote for PreToolUse.
 */
function install(dir: string, env: NodeJS.ProcessEnv): string {
  mkdirSync(join(dir, '.claude'), { recursive: true });
  writeFileSync(join(dir, '.claude', 'guard.js'), GUARD_JS);
  const settings = join(dir, '.claude', 'settings.json');
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: '/bin/true' }] },
          { matcher: 'Edit', hooks: [{ type: 'command', command: '/bin/true' }] },
        ],
      },
    }),
  );
  const r = spawnSync(process.execPath, [BIN, 'claude-code', 'install', settings, '--write'], {
    env,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`install: ${r.stderr}`);
  // The Edit guard becomes a JS hook in the copy (install moves command hooks; "edit the copy").
  const copyPath = join(dir, '.claude', 'settings.hookwarden.json');
  const copy = JSON.parse(readFileSync(copyPath, 'utf8'));
  copy.hooks.PreToolUse[1].hooks = [{ type: 'js', source: 'guard.js' }];
  writeFileSync(copyPath, JSON.stringify(copy, null, 2));
  const written = JSON.parse(readFileSync(settings, 'utf8'));
  return written.hooks.PreToolUse[0].hooks[0].command as string;
}

function sh(command: string, stdin: string, env: NodeJS.ProcessEnv, expectCode = 0) {
  return runProcess(['-c', command], { file: '/bin/sh', stdin, expectCode, env });
}

/** The socket of the daemon of `command`'s configuration (the client's --print-socket). */
function socketOf(command: string, env: NodeJS.ProcessEnv): string {
  const r = spawnSync('/bin/sh', ['-c', command.replace(/^(\S+)/, '$1 --print-socket')], {
    env,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`--print-socket: ${r.stderr}`);
  return r.stdout.trim();
}

/** Stops the daemon on `socket` if one answers, waits for it to exit, forgets its start throttle. */
async function stopDaemon(socket: string): Promise<void> {
  const s = await askDaemon(socket, 'stop');
  if (!('error' in s)) {
    const pid = Number(s.pid);
    for (;;) {
      try {
        process.kill(pid, 0);
      } catch {
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  rmSync(`${socket}.starting`, { force: true });
}

async function waitForDaemon(socket: string): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (!('error' in (await askDaemon(socket, 'status')))) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no daemon came up on ${socket}`);
}

/**
 * Median task-clock (CPU ms) of one process (`words`, no shell; exec and exit included), over
 * `runs` runs, or undefined without perf.
 */
function cpuMs(words: string[], stdin: string, env: NodeJS.ProcessEnv, runs: number): number | undefined {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', '--', ...words], {
      input: stdin,
      env,
      encoding: 'utf8',
    });
    const line = r.stderr.split('\n').find((l) => l.includes(',task-clock,'));
    if (r.error !== undefined || line === undefined) return undefined;
    samples.push(Number(line.split(',')[0]));
  }
  return median(samples);
}

/**
 * Latency of each variant, round-robin (rotating which goes first), as interleavedLatency measures
 * it; `after` runs untimed after each call of its variant.
 */
async function rounds(
  variants: Record<string, { run: () => Promise<unknown>; after?: () => Promise<unknown> }>,
  warmup: number,
  iterations: number,
): Promise<Record<string, Stats>> {
  const names = Object.keys(variants);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < warmup + iterations; i++) {
    for (let k = 0; k < names.length; k++) {
      const v = variants[names[(i + k) % names.length]!]!;
      const t = performance.now();
      await v.run();
      const ms = performance.now() - t;
      await v.after?.();
      if (i >= warmup) samples[names[(i + k) % names.length]!]!.push(ms);
    }
  }
  return Object.fromEntries(names.map((n) => [n, stats(samples[n]!)]));
}

const row = (name: string, s: Stats, hook: number) =>
  `| ${name} | ${fmt(s.p50, 2)} | ${fmt(s.p90, 2)} | ${fmt(s.p99, 2)} | ${fmt(s.p50 - hook, 2)} |`;

export async function run(quick = false): Promise<ScenarioReport> {
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-client-'));
  // The runtime directory on a tmpfs, as $XDG_RUNTIME_DIR is (/run/user/<uid>): the daemon's hooks
  // get their scratch directories there too, and on a disk those cost ~1 ms a call to remove.
  const run = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/hw-bench-run-') : join(dir, 'run');
  mkdirSync(run, { recursive: true, mode: 0o700 });
  chmodSync(run, 0o700);
  const env = {
    ...process.env,
    XDG_RUNTIME_DIR: run,
    XDG_STATE_HOME: join(dir, 'state'),
    HOOKWARDEN_SOCKET: '',
  };
  const sockets: string[] = [];
  try {
    const warm = join(dir, 'warm');
    const cold = join(dir, 'cold');
    mkdirSync(warm);
    const command = install(warm, env);
    if (!command.includes('hookwarden-client'))
      throw new Error(`install wrote no client command (was it built?): ${command}`);
    mkdirSync(cold);
    const coldCommand = install(cold, env); // a project of its own: its own configuration and daemon
    // The words before the guard (`|| { … }`: the fail-closed answer when the command cannot run).
    const words = command.split(' || ')[0]!.split(' ');
    const nodeWords = words.slice(1).join(' ');
    writeFileSync(join(dir, 'guard.cjs'), GUARD_CJS);
    const bash = event(warm, 'Bash', { command: 'ls' });
    const edit = event(warm, 'Edit', { file_path: join(warm, '.env'), old_string: 'a', new_string: 'b' });
    const read = event(warm, 'Read', { file_path: join(warm, 'a.txt') });
    const coldBash = event(cold, 'Bash', { command: 'ls' });
    const warmSocket = socketOf(command, env);
    const coldSocket = socketOf(coldCommand, env);
    sockets.push(warmSocket, coldSocket);
    // Start the warm daemon and check every variant answers as it must, from the daemon.
    await sh(command, bash, env);
    await waitForDaemon(warmSocket);
    for (const [input, code] of [
      [bash, 0],
      [edit, 2],
      [read, 0],
    ] as const)
      await sh(command, input, env, code);
    await stopDaemon(coldSocket);
    const r = await rounds(
      {
        [V.node]: { run: () => runProcess(['-e', '0']) },
        [V.hook]: { run: () => sh('/bin/true', bash, env) },
        [V.nodeGuard]: { run: () => sh(`${process.execPath} ${join(dir, 'guard.cjs')}`, edit, env, 2) },
        [V.inProcess]: { run: () => sh(nodeWords, bash, env) },
        [V.oneHook]: { run: () => sh(command, bash, env) },
        [V.jsGuard]: { run: () => sh(command, edit, env, 2) },
        [V.noMatch]: { run: () => sh(command, read, env) },
        // After each first call (untimed): its daemon comes up and is stopped again.
        [V.first]: {
          run: () => sh(coldCommand, coldBash, env),
          after: async () => {
            await waitForDaemon(coldSocket);
            await stopDaemon(coldSocket);
          },
        },
      },
      quick ? 1 : 3,
      quick ? 3 : 40,
    );
    // Light rounds: the hook alone and the warm client rows only, no Node process between them (a
    // Node start evicts caches and takes both CPUs for ~70 ms; Claude Code's own calls come in bursts).
    const light = await rounds(
      {
        [V.hook]: { run: () => sh('/bin/true', bash, env) },
        [V.oneHook]: { run: () => sh(command, bash, env) },
        [V.jsGuard]: { run: () => sh(command, edit, env, 2) },
        [V.noMatch]: { run: () => sh(command, read, env) },
      },
      quick ? 1 : 10,
      quick ? 3 : 150,
    );
    const after = await askDaemon(warmSocket, 'status');
    const served = 'error' in after ? undefined : (after.calls as { answered: number; fellBack: number });
    const timings = 'error' in after ? {} : (after.answerMs as Record<string, { p50: number; p99: number }>);
    const inDaemon = Object.entries(timings)
      .map(([kind, t]) => `${kind} ${fmt(t.p50, 2)} / ${fmt(t.p99, 2)} ms`)
      .join(', ');
    const cpu = {
      nothing: cpuMs(['/bin/true'], '', env, quick ? 3 : 15),
      // The client's words as the shell splits them (install quoted none of these paths).
      oneHook: cpuMs(words, bash, env, quick ? 3 : 15),
      noMatch: cpuMs(words, read, env, quick ? 3 : 15),
    };
    const p = (k: keyof typeof V) => r[V[k]]!;
    const hook = p('hook').p50;
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    return {
      title: 'Claude Code hooks through hookwarden-client (whole processes, as Claude Code runs them)',
      markdown: [
        `${p('node').n} interleaved rounds (rotating which variant goes first); each call a fresh \`/bin/sh -c <command>\` with the`,
        `input piped, as Claude Code runs a command hook; the client rows run the command \`claude-code install --write\``,
        `wrote. Measured on ${machine()}, load average ${load} at the end. Reproduce: \`npm run bench -- claude-code-client\`.`,
        '',
        '| variant | p50 ms | p90 ms | p99 ms | p50 − the hook alone, ms |',
        '|---|---|---|---|---|',
        ...Object.values(V).map((name) => row(name, r[name]!, hook)),
        '',
        `Light rounds, ${light[V.hook]!.n} of them: the hook alone and the warm client rows only, no Node process between them:`,
        '',
        '| variant | p50 ms | p90 ms | p99 ms | p50 − the hook alone, ms |',
        '|---|---|---|---|---|',
        ...[V.hook, V.oneHook, V.jsGuard, V.noMatch].map((name) =>
          row(name, light[name]!, light[V.hook]!.p50),
        ),
        '',
        `The warm daemon answered ${served?.answered ?? '?'} calls and fell back on ${served?.fellBack ?? '?'}; its own time per answer (from the call accepted to the answer: \`daemon status\`), p50 / p99: ${inDaemon}.`,
        cpu.oneHook === undefined || cpu.nothing === undefined
          ? 'perf is not available here: the client’s own CPU time was not measured.'
          : `The client process’s own CPU time (\`perf stat -e task-clock\`, median of ${quick ? 3 : 15}, exec and exit included): ${fmt(cpu.oneHook, 2)} ms for the /bin/true call, ${fmt(cpu.noMatch ?? Number.NaN, 2)} ms for the no-match call, against ${fmt(cpu.nothing, 2)} ms for \`/bin/true\` itself; the rest of the wall time is the daemon, the hook, the kernel and waiting for a CPU.`,
      ].join('\n'),
      goals: [
        `light rounds: one /bin/true command hook ≤ the hook alone + 3 ms: ${fmt(light[V.oneHook]!.p50, 2)} vs ${fmt(light[V.hook]!.p50 + 3, 2)} ms — ${verdict(light[V.oneHook]!.p50 <= light[V.hook]!.p50 + 3)}; one JS guard ≤ 5 ms: ${fmt(light[V.jsGuard]!.p50, 2)} ms — ${verdict(light[V.jsGuard]!.p50 <= 5)}; no hook matches ≤ 3 ms: ${fmt(light[V.noMatch]!.p50, 2)} ms — ${verdict(light[V.noMatch]!.p50 <= 3)}`,
        `one /bin/true command hook, p50 ≤ the hook alone + 3 ms (${fmt(hook + 3, 2)} ms): ${fmt(p('oneHook').p50, 2)} ms — ${verdict(p('oneHook').p50 <= hook + 3)}`,
        `one JS guard, p50 ≤ 5 ms: ${fmt(p('jsGuard').p50, 2)} ms — ${verdict(p('jsGuard').p50 <= 5)}`,
        `the same guard as a plain \`node guard.cjs\` hook is ≥ 10× slower: ${fmt(p('nodeGuard').p50 / p('jsGuard').p50, 1)}× — ${verdict(p('nodeGuard').p50 >= 10 * p('jsGuard').p50)}`,
        `no hook matches, p50 ≤ 3 ms: ${fmt(p('noMatch').p50, 2)} ms — ${verdict(p('noMatch').p50 <= 3)}`,
        `first call with no daemon ≤ 1.5× today's in-process adapter (${fmt(1.5 * p('inProcess').p50, 1)} ms): ${fmt(p('first').p50, 1)} ms, ${fmt(p('first').p50 / p('inProcess').p50, 2)}× — ${verdict(p('first').p50 <= 1.5 * p('inProcess').p50)}`,
      ],
    };
  } finally {
    for (const s of sockets) await stopDaemon(s);
    rmSync(dir, { recursive: true, force: true });
    rmSync(run, { recursive: true, force: true });
  }
}
