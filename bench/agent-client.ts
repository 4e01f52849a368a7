// Every agent's installed hook through hookwarden-client (issue 39): for Claude Code, Codex, Gemini
// CLI, Cursor and Copilot CLI, the exact command `<agent> install --write` puts in the agent's file,
// run as the agent runs a command hook (a fresh `bash -c <command>`, the agent's input piped), its
// daemon warm, against the hook alone run the same way (`bash -c /bin/true`, the same input), in the
// same interleaved rounds. The first call with no daemon (it answers in process and starts one) runs
// on a project of its own, whose daemon is stopped before each of its calls.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { askDaemon } from '../src/cli/claude-code/daemon/control.js';
import { fmt, machine, runProcess, type ScenarioReport, type Stats, stats } from './harness.js';

const BIN = fileURLToPath(new URL('../../bin/hookwarden', import.meta.url));
const AGENTS = ['claude-code', 'codex', 'gemini', 'cursor', 'copilot'] as const;
type Agent = (typeof AGENTS)[number];

/** Each agent's file with one `/bin/true` hook on its shell gate, and that gate's input. */
const SETUP: Record<Agent, { file: string; hooks: object; event: string; input: object }> = {
  'claude-code': {
    file: '.claude/settings.json',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/bin/true' }] }] },
    event: 'PreToolUse',
    input: {
      session_id: 'b',
      transcript_path: '/tmp/t',
      cwd: '/tmp',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_use_id: 't',
    },
  },
  codex: {
    file: '.codex/hooks.json',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/bin/true' }] }] },
    event: 'PreToolUse',
    input: {
      session_id: 'b',
      turn_id: 't',
      hook_event_name: 'PreToolUse',
      cwd: '/tmp',
      model: 'gpt-5',
      permission_mode: 'default',
      transcript_path: null,
      tool_name: 'Bash',
      tool_use_id: 'c',
      tool_input: { command: 'ls' },
    },
  },
  gemini: {
    file: '.gemini/settings.json',
    hooks: {
      BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: '/bin/true' }] }],
    },
    event: 'BeforeTool',
    input: {
      session_id: 'b',
      transcript_path: '',
      cwd: '/tmp',
      hook_event_name: 'BeforeTool',
      timestamp: '2026-01-01T00:00:00.000Z',
      tool_name: 'run_shell_command',
      tool_input: { command: 'ls' },
    },
  },
  cursor: {
    file: '.cursor/hooks.json',
    hooks: { beforeShellExecution: [{ command: '/bin/true' }] },
    event: 'beforeShellExecution',
    input: {
      conversation_id: 'b',
      generation_id: 'g',
      hook_event_name: 'beforeShellExecution',
      workspace_roots: ['/tmp'],
      command: 'ls',
      cwd: '',
    },
  },
  copilot: {
    file: '.github/hooks/bench.json',
    hooks: { preToolUse: [{ type: 'command', bash: '/bin/true' }] },
    event: 'preToolUse',
    input: { timestamp: 1704614600000, cwd: '/tmp', toolName: 'bash', toolArgs: '{"command":"ls"}' },
  },
};

/** Installs `agent`'s project in `dir`; returns the command install wrote for its gate. */
function install(agent: Agent, dir: string, env: NodeJS.ProcessEnv): string {
  const s = SETUP[agent];
  const file = join(dir, s.file);
  mkdirSync(dirname(file), { recursive: true });
  const extra = agent === 'cursor' || agent === 'copilot' ? { version: 1 } : {};
  writeFileSync(file, JSON.stringify({ ...extra, hooks: s.hooks }));
  const r = spawnSync(process.execPath, [BIN, agent, 'install', file, '--write'], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${agent} install: ${r.stderr}`);
  const entries = JSON.parse(readFileSync(file, 'utf8')).hooks[s.event] as Record<string, unknown>[];
  const handler = (
    Array.isArray(entries[0]!.hooks) ? (entries[0]!.hooks as Record<string, unknown>[])[0]! : entries[0]!
  ) as Record<string, string>;
  const command = handler.command ?? handler.bash!;
  if (!command.includes('hookwarden-client'))
    throw new Error(`install wrote no client command (was it built?): ${command}`);
  return command;
}

const bash = (command: string, stdin: string, env: NodeJS.ProcessEnv) =>
  runProcess(['-c', command], { file: '/bin/bash', stdin, env });

/** The socket of a command's configuration (the client's --print-socket, its words before `||`). */
function socketOf(command: string, env: NodeJS.ProcessEnv): string {
  const words = command.split(' || ')[0]!;
  const r = spawnSync('/bin/bash', ['-c', words.replace(/^(\S+)/, '$1 --print-socket')], {
    env,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`--print-socket: ${r.stderr}`);
  return r.stdout.trim();
}

async function stopDaemon(socket: string): Promise<void> {
  const s = await askDaemon(socket, 'stop');
  if (!('error' in s))
    for (;;) {
      try {
        process.kill(Number(s.pid), 0);
      } catch {
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
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

interface Variant {
  run: () => Promise<unknown>;
  after?: () => Promise<unknown>;
}

/** Round-robin rounds, rotating which variant goes first; `after` runs untimed after its variant. */
async function rounds(variants: Record<string, Variant>, warmup: number, iterations: number) {
  const names = Object.keys(variants);
  const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = 0; i < warmup + iterations; i++)
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length]!;
      const t = performance.now();
      await variants[name]!.run();
      const ms = performance.now() - t;
      await variants[name]!.after?.();
      if (i >= warmup) samples[name]!.push(ms);
    }
  return Object.fromEntries(names.map((n) => [n, stats(samples[n]!)])) as Record<string, Stats>;
}

export async function run(quick = false): Promise<ScenarioReport> {
  const dir = mkdtempSync(join(tmpdir(), 'hw-bench-agents-'));
  // On a tmpfs, as $XDG_RUNTIME_DIR is: the daemons' hooks get their scratch directories there.
  const runDir = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/hw-bench-run-') : join(dir, 'run');
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  chmodSync(runDir, 0o700);
  const env = {
    ...process.env,
    XDG_RUNTIME_DIR: runDir,
    XDG_STATE_HOME: join(dir, 'state'),
    HOOKWARDEN_SOCKET: '',
  };
  const sockets: string[] = [];
  const rows: string[] = [];
  const goals: string[] = [];
  try {
    for (const agent of AGENTS) {
      const input = JSON.stringify(SETUP[agent].input);
      const warm = install(agent, join(dir, agent, 'warm'), env);
      const cold = install(agent, join(dir, agent, 'cold'), env);
      const [warmSocket, coldSocket] = [socketOf(warm, env), socketOf(cold, env)];
      sockets.push(warmSocket, coldSocket);
      await bash(warm, input, env);
      await waitForDaemon(warmSocket);
      await stopDaemon(coldSocket);
      const r = await rounds(
        {
          hook: { run: () => bash('/bin/true', input, env) },
          routed: { run: () => bash(warm, input, env) },
          first: {
            run: () => bash(cold, input, env),
            after: async () => {
              await waitForDaemon(coldSocket);
              await stopDaemon(coldSocket);
            },
          },
        },
        quick ? 1 : 3,
        quick ? 3 : 30,
      );
      // Light rounds: the hook alone and the warm client only, no Node process started between them.
      const light = await rounds(
        { hook: { run: () => bash('/bin/true', input, env) }, routed: { run: () => bash(warm, input, env) } },
        quick ? 1 : 10,
        quick ? 3 : 120,
      );
      const diff = light.routed!.p50 - light.hook!.p50;
      rows.push(
        `| ${agent} | ${SETUP[agent].event} | ${fmt(light.routed!.p50, 2)} (p99 ${fmt(light.routed!.p99, 1)}) | ${fmt(light.hook!.p50, 2)} | +${fmt(diff, 2)} | ${fmt(r.first!.p50, 1)} (hook alone ${fmt(r.hook!.p50, 2)}) |`,
      );
      goals.push(
        `${agent}: the routed hook, daemon warm, ≤ the hook alone + 3 ms p50 (bar +5): +${fmt(diff, 2)} ms — ${diff <= 3 ? 'met' : diff <= 5 ? 'within the bar' : 'NOT met'}`,
      );
    }
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    return {
      title: 'Every agent through hookwarden-client (the installed command, as each agent runs it)',
      markdown: [
        `Each call a fresh \`bash -c <command>\` with the agent's input piped, as the agents run a command hook; the routed`,
        `rows run the command \`<agent> install --write\` wrote for a file with one \`/bin/true\` hook on the agent's shell`,
        `gate. The routed hook and the hook alone: ${quick ? 3 : 120} light rounds, interleaved (no Node process between them);`,
        `the first call with no daemon: ${quick ? 3 : 30} rounds interleaved with the hook alone, the daemon stopped before each.`,
        `Measured on ${machine()}, load average ${load} at the end. Reproduce: \`npm run bench -- agent-client\`.`,
        '',
        '| agent | event | routed hook, daemon warm: p50 ms | the hook alone: p50 ms | difference | first call, no daemon: p50 ms |',
        '|---|---|---|---|---|---|',
        ...rows,
      ].join('\n'),
      goals,
    };
  } finally {
    for (const s of sockets) await stopDaemon(s);
    rmSync(dir, { recursive: true, force: true });
    rmSync(runDir, { recursive: true, force: true });
  }
}
