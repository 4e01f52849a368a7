// hookwarden-client and its daemon in tests: real processes, each test with its own socket and
// state directories (XDG_RUNTIME_DIR, XDG_STATE_HOME), every daemon stopped at the end of the file.
import { chmodSync, cpSync, existsSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { bashInput } from './claude-code.js';
import { BIN, CLIENT, type CliResult, type LiveCli, runCli, runProgram, startCli } from './cli.js';
import { tempDir, writeConfig } from './fixture.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Generous bound that only catches a hang. */
const HANG_MS = 30_000;

const envs = new Set<NodeJS.ProcessEnv>();
const daemons = new Set<LiveCli>();

afterAll(async () => {
  for (const d of daemons)
    if (d.child.exitCode === null && d.child.signalCode === null) d.child.kill('SIGTERM');
  await Promise.all([...daemons].map((d) => d.done.catch(() => undefined)));
  // Daemons started on demand (in the background): `daemon stop` waits for each to exit. A file
  // with many environments starts as many Node processes here: a bound that only catches a hang.
}, 120_000);

afterAll(async () => {
  const all = [...envs];
  for (let i = 0; i < all.length; i += 4)
    await Promise.all(all.slice(i, i + 4).map((env) => runCli(['daemon', 'stop'], { env })));
}, 300_000);

/** An environment with a socket directory and a state directory of its own. */
export function daemonEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv & { XDG_RUNTIME_DIR: string } {
  const dir = tempDir('hw-client-');
  const run = join(dir, 'run');
  mkdirSync(run, { mode: 0o700 });
  chmodSync(run, 0o700);
  const env = {
    ...process.env,
    HOOKWARDEN_SOCKET: '',
    HOOKWARDEN_CLIENT_FALLBACK: undefined,
    HOOKWARDEN_CLIENT_START: undefined,
    XDG_RUNTIME_DIR: run,
    XDG_STATE_HOME: join(dir, 'state'),
    ...extra,
  } as NodeJS.ProcessEnv & { XDG_RUNTIME_DIR: string };
  envs.add(env);
  return env;
}

/** The command `claude-code install` writes, run as Claude Code runs it: a fresh process, stdin piped. */
export function runClient(
  args: string[],
  input: string,
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<CliResult> {
  return runProgram(CLIENT, [process.execPath, BIN, 'claude-code', ...args], {
    stdin: input,
    env,
    ...(cwd === undefined ? {} : { cwd }),
  });
}

/** The same call through the Node adapter alone (today's command), for comparisons. */
export function runAdapter(args: string[], input: string, env: NodeJS.ProcessEnv, cwd?: string) {
  return runCli(['claude-code', ...args], { stdin: input, env, ...(cwd === undefined ? {} : { cwd }) });
}

/** The socket the client uses for `args` (its --print-socket). */
export async function socketOf(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<string> {
  const r = await runProgram(CLIENT, ['--print-socket', process.execPath, BIN, 'claude-code', ...args], {
    env,
    ...(cwd === undefined ? {} : { cwd }),
  });
  if (r.code !== 0) throw new Error(`--print-socket: ${r.stderr}`);
  return r.stdout.trim();
}

/** Runs `claude-code daemon run` in the foreground on `socket` (default: the client's); resolves once it listens. */
export async function startDaemon(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { socket?: string; cwd?: string; daemonEnv?: NodeJS.ProcessEnv; idle?: string } = {},
): Promise<LiveCli & { socket: string }> {
  const socket = options.socket ?? (await socketOf(args, env, options.cwd));
  const dir = join(socket, '..');
  if (!existsSync(dir)) mkdirSync(dir, { mode: 0o700 });
  const live = startCli(
    [
      'claude-code',
      'daemon',
      'run',
      '--socket',
      socket,
      ...(options.idle === undefined ? [] : ['--idle-timeout', options.idle]),
      '--',
      ...args,
    ],
    { env: options.daemonEnv ?? env, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) },
  );
  daemons.add(live);
  await live.stderrIncludes('"msg":"listening"');
  return Object.assign(live, { socket });
}

export interface DaemonStatus {
  socket: string;
  status: {
    pid: number;
    args: string[];
    root: string;
    log: string | null;
    calls: { answered: number; fellBack: number; running: number };
    error?: string;
  };
}

/** `claude-code daemon status --json` for this environment. */
export async function daemonStatus(env: NodeJS.ProcessEnv): Promise<DaemonStatus[]> {
  const r = await runCli(['claude-code', 'daemon', 'status', '--json'], { env });
  return JSON.parse(r.stdout) as DaemonStatus[];
}

/** Polls `check` (a marker: a file, a socket, a status) until it holds; only a hang fails. */
export async function waitUntil<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what: string,
): Promise<T> {
  const until = Date.now() + HANG_MS;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The debug-log note of an adapter the client fell back to. */
export const FELL_BACK = /hookwarden: the daemon was not used \((.*)\): dispatched in this process/;

/** Why the client fell back, from the adapter's stderr (undefined: it did not). */
export const noteOf = (stderr: string) => FELL_BACK.exec(stderr)?.[1];

/** A Bash guard against recursive deletes (exit 2 with a reason). */
export const NO_RM = 'grep -q "rm -rf" && { echo "no recursive deletes" >&2; exit 2; }; exit 0';

/** A Claude Code hooks copy, as install writes it, with one Bash command hook. */
export const guarded = (dir: string, command = NO_RM, extra: Record<string, unknown> = {}) =>
  writeConfig(dir, 'settings.hookwarden.json', {
    dialect: 'claude-code',
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command, ...extra }] }] },
  });

/** Hook inputs: a call the guard blocks, one it lets through. */
export const rm = JSON.stringify(bashInput('rm -rf /'));
export const ls = JSON.stringify(bashInput('ls'));

/** A checkout of its own (bin, dist, package.json; node_modules linked): to change without disturbing others. */
export function copyCheckout(): string {
  const copy = tempDir('hw-checkout-');
  // dist/ is a link to the build in force (scripts/build.mjs): the copy gets the build itself, never a
  // link back into this checkout (cpSync would make a relative link absolute).
  for (const part of ['bin', 'dist', 'package.json'])
    cpSync(realpathSync(join(ROOT, part)), join(copy, part), {
      recursive: true,
      dereference: true,
      filter: (src) => !/\/\.(holders|retired)$/.test(src),
    });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}
