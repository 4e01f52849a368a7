// An installed hook whose hookwarden is gone (issue 39): the installation removed, moved, half
// removed (its build, its bin), with and without hookwarden-client, and removed while the agent
// calls it. Every call of an event that can block is blocked, in the agent's own fail-closed form
// (the Node adapter's answer for that event, reason aside); an event that cannot block gets the
// agent's non-blocking error. Never a pass.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapterSpecOf } from '../../src/cli/adapter/specs.js';
import {
  ADAPTER_SETUPS,
  type Adapter,
  adapterCommands,
  adapterProject,
  type Obj,
} from '../helpers/agent-setups.js';
import { runProgram } from '../helpers/cli.js';
import { copyCheckout, daemonEnv, daemonStatus, waitUntil } from '../helpers/native-client.js';

const ADAPTERS = [
  'claude-code',
  'codex',
  'gemini',
  'cursor',
  'copilot',
] as const satisfies readonly Adapter[];

/** An event of each agent that cannot block: the project gets a hook for it before install. */
const OBSERVER: Record<Adapter, string> = {
  'claude-code': 'SessionEnd',
  codex: 'SessionEnd',
  gemini: 'SessionEnd',
  cursor: 'sessionEnd',
  copilot: 'sessionEnd',
};
const observerEntry = (a: Adapter): Obj =>
  a === 'cursor'
    ? { command: 'true' }
    : a === 'copilot'
      ? { type: 'command', bash: 'true' }
      : { hooks: [{ type: 'command', command: 'true' }] };

const shape = (text: string) => text.replace(/hookwarden: [^"\n]*/g, 'hookwarden: <reason>');
/** The event's fail-closed answer: its exit code, its stdout, and its line on stderr (reason aside). */
const failClosed = (a: Adapter, event: string) => {
  const f = adapterSpecOf(a)!.failure(event, 'x');
  return { code: f.exitCode, stdout: shape(f.stdout), line: shape(f.stderr).trim() };
};

/** Installs the project's hooks with the hookwarden of `checkout`; returns each event's command line. */
async function installFrom(checkout: string, a: Adapter, flags: string[] = []) {
  const { dir, path } = adapterProject(a);
  const file = JSON.parse(readFileSync(path, 'utf8')) as Obj;
  (file.hooks as Obj)[OBSERVER[a]] = [observerEntry(a)];
  writeFileSync(path, JSON.stringify(file));
  const env = daemonEnv();
  const r = await runProgram(
    process.execPath,
    [join(checkout, 'bin/hookwarden'), a, 'install', path, '--write', ...flags],
    { env },
  );
  expect(r.code, r.stderr).toBe(0);
  const written = JSON.parse(readFileSync(path, 'utf8')) as Obj;
  const lineOf = (event: string) => adapterCommands(a as 'codex', written, event)[0]!;
  return { dir, env, line: lineOf(ADAPTER_SETUPS[a].event), observer: lineOf(OBSERVER[a]) };
}

/** The gate's command, run as the agent runs it, for `event` (the gate's input under that name). */
function run(a: Adapter, line: string, dir: string, env: NodeJS.ProcessEnv, event = ADAPTER_SETUPS[a].event) {
  const input = {
    ...ADAPTER_SETUPS[a].input('rm -rf /'),
    ...(a === 'copilot' ? {} : { hook_event_name: event }),
  };
  const command = a === 'copilot' ? line.replace('--event preToolUse', `--event ${event}`) : line;
  const r = spawnSync('bash', ['-c', command], {
    input: JSON.stringify(input),
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  // Node's own words may come first on stderr (a module not found): the answer's line is among them.
  const lines = shape(r.stderr).split('\n');
  const f = failClosed(a, event);
  return {
    code: r.status,
    stdout: shape(r.stdout),
    line: lines.includes(f.line) ? f.line : lines.join('\n'),
  };
}

/** Whether an answer blocks the call in the agent's form. */
function blocked(a: Adapter, r: { status: number | null; stdout: string }): boolean {
  if (a === 'cursor') return r.status === 0 && JSON.parse(r.stdout).permission === 'deny';
  if (a === 'copilot') return r.status === 0 && JSON.parse(r.stdout).permissionDecision === 'deny';
  return r.status === 2;
}

/** rm -rf, retried: a daemon of the installation may still write a file there as it goes. */
const remove = (path: string) => rmSync(path, { recursive: true, force: true, maxRetries: 5 });

const VARIANTS: readonly [string, (checkout: string) => void, string[]][] = [
  ['the installation removed', (c) => remove(c), []],
  ['the installation moved', (c) => renameSync(c, `${c}-moved`), []],
  [
    'its build removed (dist/, the client with it)',
    (c) => rmSync(join(c, 'dist'), { recursive: true, force: true }),
    [],
  ],
  ['bin/hookwarden removed (the client left)', (c) => rmSync(join(c, 'bin/hookwarden')), []],
  [
    'without the client: its build removed',
    (c) => rmSync(join(c, 'dist'), { recursive: true, force: true }),
    ['--no-client'],
  ],
  ['without the client: bin/hookwarden removed', (c) => rmSync(join(c, 'bin/hookwarden')), ['--no-client']],
  [
    'without the client: the installation removed',
    (c) => rmSync(c, { recursive: true, force: true }),
    ['--no-client'],
  ],
];

describe.each(ADAPTERS)('%s: hookwarden gone under an installed hook', (a) => {
  it.each(VARIANTS)(
    '%s: a gate blocks in the agent’s form, an observer errs without blocking',
    async (_what, remove, flags) => {
      const checkout = copyCheckout();
      const { dir, env, line, observer } = await installFrom(checkout, a, flags);
      expect(
        ADAPTER_SETUPS[a].denied(
          spawnSync('bash', ['-c', line], {
            input: JSON.stringify(ADAPTER_SETUPS[a].input('rm -rf /')),
            cwd: dir,
            env,
            encoding: 'utf8',
          }),
        ),
        'it works while installed',
      ).toBe(true);
      // Its daemon, started by that call, is up: a daemon of a removed installation answers no more.
      if (!flags.includes('--no-client'))
        await waitUntil(
          async () => ((await daemonStatus(env)).length === 1 ? true : undefined),
          'its daemon',
        );
      remove(checkout);
      expect(run(a, line, dir, env)).toEqual(failClosed(a, ADAPTER_SETUPS[a].event));
      expect(run(a, observer, dir, env, OBSERVER[a])).toEqual(failClosed(a, OBSERVER[a]));
    },
  );
});

it('removed while the agent calls it: every call before, during and after is blocked', async () => {
  for (const a of ['claude-code', 'cursor'] as const) {
    const checkout = copyCheckout();
    const { dir, env, line } = await installFrom(checkout, a);
    const input = JSON.stringify(ADAPTER_SETUPS[a].input('rm -rf /'));
    const results: { status: number | null; stdout: string; stderr: string }[] = [];
    let removing = true;
    const loop = async () => {
      while (removing || results.length < 12) {
        results.push(
          await new Promise((resolve) => {
            const child = spawn('bash', ['-c', line], { cwd: dir, env });
            let stdout = '';
            let stderr = '';
            child.stdout.on('data', (d) => (stdout += d));
            child.stderr.on('data', (d) => (stderr += d));
            child.on('close', (status) => resolve({ status, stdout, stderr }));
            child.stdin.on('error', () => {}); // a command that ends before reading its input
            child.stdin.end(input);
          }),
        );
      }
    };
    const calls = Promise.all([loop(), loop()]);
    await new Promise((r) => setTimeout(r, 300));
    // File by file, as rm -rf goes: the client, the bundle, bin… each gone at its own moment.
    spawnSync('rm', ['-rf', checkout]);
    removing = false;
    await calls;
    expect(results.length).toBeGreaterThanOrEqual(12);
    for (const r of results) expect(blocked(a, r), `${a}: ${r.status} ${r.stdout} ${r.stderr}`).toBe(true);
  }
});
