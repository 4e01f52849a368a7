// The Claude Code adapter (`hookwarden claude-code`), as Claude Code runs it: one whole process per
// hook event, the event's JSON on stdin. Baselines in the same rounds (rotating which goes first):
// `node -e 0` (Node's own start-up) and the hook alone as Claude Code would run it (`sh -c
// /bin/true`). Goals (issue 10, item 12): with no matching hook the adapter takes at most 2× `node
// -e 0`; with one command hook at most `node -e 0` + the hook alone + 20 ms. The same one-hook event
// is also sent through a running `hookwarden serve --socket` (the adapter forwards to it).
// `HOOKWARDEN_BENCH_BEFORE=/path/to/other/bin/hookwarden` (a built checkout) adds the three adapter
// variants of that build in the same rounds (`HOOKWARDEN_BENCH_BEFORE_LABEL` names them, default
// `before`); its socket variant forwards to the same daemon (this build's `serve --socket`).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, interleavedLatency, machine, runProcess, type ScenarioReport } from './harness.js';

// From dist/bench/ (npm run bench) the binary is two levels up.
const BIN = fileURLToPath(new URL('../../bin/hookwarden', import.meta.url));

const BASELINE = 'node -e 0';
const HOOK_ALONE = 'the hook alone: sh -c /bin/true';
const NO_MATCH = 'adapter, no hook matches (a Bash guard, a Read call)';
const ONE_HOOK = 'adapter, one command hook (/bin/true)';
const VIA_SOCKET = 'adapter, one command hook, via serve --socket';

/** A real `hookwarden serve --socket` for the settings; resolves once it listens. */
function startDaemon(settings: string, socket: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--config', settings, '--socket', socket], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(child);
    });
    child.once('close', (code) => reject(new Error(`serve --socket ended (${code}) before listening`)));
  });
}

async function stopDaemon(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const closed = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGTERM');
  await closed;
}

function fixtures(dir: string) {
  // A Claude Code settings file: one PreToolUse guard on Bash.
  const settings = join(dir, 'settings.json');
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/bin/true' }] }] },
    }),
  );
  const event = (tool: string, toolInput: object) =>
    JSON.stringify({
      session_id: 'bench',
      transcript_path: join(dir, 'transcript.jsonl'),
      cwd: dir,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: tool,
      tool_input: toolInput,
      tool_use_id: 'toolu_bench',
    });
  return {
    settings,
    read: event('Read', { file_path: join(dir, 'a.txt') }),
    bash: event('Bash', { command: 'ls' }),
  };
}

export async function run(quick = false): Promise<ScenarioReport> {
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-cc-')); // mode 0700: serve accepts it for --socket
  let daemon: ChildProcess | undefined;
  try {
    const f = fixtures(dir);
    const socket = join(dir, 'hw.sock');
    daemon = await startDaemon(f.settings, socket);
    // The socket variants must measure forwarding, not the in-process fallback (which says so on stderr).
    const before = process.env.HOOKWARDEN_BENCH_BEFORE || undefined;
    const beforeLabel = process.env.HOOKWARDEN_BENCH_BEFORE_LABEL ?? 'before';
    for (const bin of before === undefined ? [BIN] : [BIN, before]) {
      const check = spawnSync(process.execPath, [bin, 'claude-code', '-c', f.settings, '--socket', socket], {
        input: f.bash,
        encoding: 'utf8',
      });
      if (check.status !== 0 || check.stderr !== '')
        throw new Error(`${bin}: the adapter did not forward to serve --socket: ${check.stderr}`);
    }
    const variantsOf = (prefix: string, bin: string) => {
      const adapter =
        (stdin: string, extra: string[] = []) =>
        () =>
          runProcess([bin, 'claude-code', '--config', f.settings, ...extra], { stdin });
      return {
        [`${prefix}${NO_MATCH}`]: adapter(f.read),
        [`${prefix}${ONE_HOOK}`]: adapter(f.bash),
        [`${prefix}${VIA_SOCKET}`]: adapter(f.bash, ['--socket', socket]),
      };
    };
    const r = await interleavedLatency(
      {
        [BASELINE]: () => runProcess(['-e', '0']),
        [HOOK_ALONE]: () => runProcess(['-c', '/bin/true'], { file: '/bin/sh' }),
        ...(before === undefined ? {} : variantsOf(`${beforeLabel}: `, before)),
        ...variantsOf('', BIN),
      },
      { warmup: quick ? 1 : 3, iterations: quick ? 3 : 30 },
    );
    const node = r[BASELINE]!.p50;
    const hook = r[HOOK_ALONE]!.p50;
    const rows = Object.entries(r).map(
      ([name, s]) =>
        `| ${name} | ${fmt(s.p50, 1)} | ${fmt(s.p90, 1)} | ${fmt(s.p50 / node, 2)}× | ${fmt(s.p50 - node, 1)} |`,
    );
    const noMatch = r[NO_MATCH]!.p50;
    const oneHook = r[ONE_HOOK]!.p50;
    const viaSocket = r[VIA_SOCKET]!.p50;
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    return {
      title: 'Claude Code adapter (whole processes, vs node -e 0)',
      markdown: [
        `${r[BASELINE]!.n} rounds; each variant a fresh process, the Claude Code input piped on stdin;`,
        `measured on ${machine()}. Reproduce: \`npm run bench -- claude-code-adapter\`; with`,
        '`HOOKWARDEN_BENCH_BEFORE=<another checkout>/bin/hookwarden` (built) its adapter rows are measured in the same rounds.',
        '',
        '| variant | p50 ms | p90 ms | p50 vs node -e 0 | p50 − node -e 0, ms |',
        '|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
      goals: [
        `adapter, no hook matches, p50 vs node -e 0 ≤ 2×: ${fmt(noMatch / node, 2)}× — ${verdict(noMatch <= 2 * node)}`,
        `adapter, one command hook, p50 ≤ node -e 0 + the hook alone + 20 ms (${fmt(node + hook + 20, 1)} ms): ${fmt(oneHook, 1)} ms, ${fmt(oneHook - node - hook, 1)} ms over node + hook — ${verdict(oneHook <= node + hook + 20)}`,
        `adapter via serve --socket, one command hook, same bound: ${fmt(viaSocket, 1)} ms, ${fmt(viaSocket - node - hook, 1)} ms over node + hook — ${verdict(viaSocket <= node + hook + 20)}`,
      ],
    };
  } finally {
    if (daemon !== undefined) await stopDaemon(daemon);
    rmSync(dir, { recursive: true, force: true });
  }
}
