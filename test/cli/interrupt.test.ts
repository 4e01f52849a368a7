// Ctrl-C (SIGINT) and SIGTERM at different moments of a `hookwarden dispatch`. Each signal is sent
// when the process is known to have reached a stage (a line it printed, a FIFO it opened or a hook
// wrote to), never after a sleep: on a busy machine a stage can take any time to reach.
import { spawnSync } from 'node:child_process';
import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type LiveCli, startCli } from '../helpers/cli.js';
import { hooksOn, printing, tempDir, writeConfig } from '../helpers/fixture.js';
import { processesWithEnv } from '../helpers/processes.js';

/** Generous bound for a hang; a normal run answers in well under a second. */
const HANG_MS = 60_000;
const MARKERS = { ...process.env, HOOKWARDEN_TEST_STAGE_MARKERS: '1' };
const INSTALLED = 'hookwarden: test-stage: interrupts-installed';

function fifo(dir: string, name: string): string {
  const path = join(dir, name);
  const r = spawnSync('mkfifo', [path]);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr}`);
  return path;
}

/**
 * Waits for `stage` unless the CLI ends first: then the test fails at once with what the CLI said
 * (and `unblock` frees the FIFO open the test is blocked in, which nothing else could cancel).
 */
async function unlessEnded<T>(stage: Promise<T>, cli: LiveCli, unblock: () => Promise<void>): Promise<T> {
  const ended = cli.done.then(async (r) => {
    await unblock();
    throw new Error(`the CLI ended (${r.code ?? r.signal}) before the stage was reached: ${r.stderr}`);
  });
  return Promise.race([stage, ended]);
}

/** Reads what a hook writes to a FIFO; fails (instead of hanging) if the CLI ends first. */
function readFifo(path: string, cli: LiveCli): Promise<string> {
  return unlessEnded(readFile(path, 'utf8'), cli, async () => {
    // A writer that opens and closes gives the pending reader its end of file.
    await (await open(path, constants.O_WRONLY | constants.O_NONBLOCK)).close();
  });
}

/**
 * Opens a FIFO for writing: resolves once the CLI has opened it for reading (it is then blocked
 * in that read). `release` unblocks a pending open if the CLI never comes.
 */
function whenReaderOpens(path: string, cli: LiveCli) {
  const opening = open(path, 'w');
  const release = async () => {
    // A non-blocking reader lets a still-pending open for writing complete; then close both.
    const reader = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    await (await opening).close();
    await reader.close();
  };
  let released: Promise<void> | undefined;
  const releaseOnce = () => {
    released ??= release();
    return released;
  };
  return {
    opened: unlessEnded(opening, cli, releaseOnce),
    release: releaseOnce,
  };
}

/**
 * Waits until no process with the marker is left (bounded only to catch a hang). The hook's own
 * process may outlive the CLI by a moment: killed with its spawn server, it is no longer below
 * this test process, so settleHookProcesses('mine') does not see it going.
 */
async function goneMarked(mark: string, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const left = processesWithEnv('HW_TEST_MARK', mark);
    if (left.length === 0 || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('hookwarden dispatch interrupted', () => {
  it(
    'answers deny (exit 2) when SIGINT comes right after start-up, before the command has loaded',
    async () => {
      const cfg = writeConfig(
        tempDir(),
        'hooks.json',
        hooksOn('BeforeTool', [printing({ decision: 'allow' })]),
      );
      // stdin stays open and unwritten: however slow the machine, the dispatch cannot get past it.
      const cli = startCli(['dispatch', 'BeforeTool', '-c', cfg], { env: MARKERS, stdin: 'pipe' });
      await cli.stderrIncludes(INSTALLED);
      cli.child.kill('SIGINT');
      const r = await cli.done;
      expect([r.code, r.signal]).toEqual([2, null]);
      expect(JSON.parse(r.stdout)).toEqual({
        event: 'BeforeTool',
        decision: 'deny',
        reason: 'interrupted: the dispatch was aborted before a verdict',
        interrupted: true,
        hooks: [],
      });
    },
    HANG_MS,
  );

  it.each([
    ['BeforeTool', 'SIGINT', 2, 'deny'],
    ['PreToolUse', 'SIGTERM', 2, 'deny'],
    // Not in the built-in catalogue, and the config that may declare it is not loaded yet.
    ['PlatformAlert', 'SIGINT', 2, 'deny'],
    ['SessionStart', 'SIGINT', 130, 'passthrough'],
    ['SessionEnd', 'SIGTERM', 143, 'passthrough'],
  ] as const)(
    '%s, %s while the input is read (before the config loads): exit %i, %s',
    async (event, signal, code, decision) => {
      const dir = tempDir();
      const cfg = writeConfig(dir, 'hooks.json', hooksOn('BeforeTool', [printing({ decision: 'allow' })]));
      const input = fifo(dir, 'input.json');
      const cli = startCli(['dispatch', event, '-c', cfg, '-i', input]);
      const writer = whenReaderOpens(input, cli);
      try {
        await writer.opened; // the CLI is blocked reading its input
        cli.child.kill(signal);
        const r = await cli.done;
        expect([r.code, r.signal]).toEqual([code, null]);
        expect(JSON.parse(r.stdout)).toMatchObject({ decision, interrupted: true, hooks: [] });
      } finally {
        await writer.release();
      }
    },
    HANG_MS,
  );

  it.each([
    ['BeforeTool', 'SIGINT', 2, 'deny'],
    ['SessionStart', 'SIGTERM', 143, 'passthrough'],
  ] as const)(
    '%s, %s while a command hook runs: the hook is killed; exit %i, %s',
    async (event, signal, code, decision) => {
      const dir = tempDir();
      const started = fifo(dir, 'started');
      const mark = `interrupt-${event}-${process.pid}`;
      // The hook tells the test it runs (the FIFO), then waits to be killed.
      const hook = { command: `echo started > '${started}'; exec sleep 300`, env: { HW_TEST_MARK: mark } };
      const cfg = writeConfig(dir, 'hooks.json', hooksOn(event, [hook]));
      const cli = startCli(['dispatch', event, '-c', cfg]);
      expect(await readFifo(started, cli)).toBe('started\n');
      cli.child.kill(signal);
      const r = await cli.done;
      expect([r.code, r.signal]).toEqual([code, null]);
      const result = JSON.parse(r.stdout);
      expect(result).toMatchObject({ event, decision, interrupted: true });
      expect(result.hooks).toHaveLength(1);
      expect(await goneMarked(mark)).toEqual([]);
    },
    HANG_MS,
  );

  it(
    'Ctrl-C twice while a hook runs: one answer, deny, exit 2',
    async () => {
      const dir = tempDir();
      const started = fifo(dir, 'started');
      const mark = `interrupt-twice-${process.pid}`;
      const hook = { command: `echo started > '${started}'; exec sleep 300`, env: { HW_TEST_MARK: mark } };
      const cli = startCli([
        'dispatch',
        'BeforeTool',
        '-c',
        writeConfig(dir, 'hooks.json', hooksOn('BeforeTool', [hook])),
      ]);
      expect(await readFifo(started, cli)).toBe('started\n');
      cli.child.kill('SIGINT');
      cli.child.kill('SIGINT');
      const r = await cli.done;
      expect([r.code, r.signal]).toEqual([2, null]);
      expect(r.stdout.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ decision: 'deny', interrupted: true });
      expect(await goneMarked(mark)).toEqual([]);
    },
    HANG_MS,
  );

  it(
    "other commands keep Node's default: the signal ends them at once",
    async () => {
      const file = fifo(tempDir(), 'audit.jsonl');
      const cli = startCli(['audit', 'verify', file]);
      const writer = whenReaderOpens(file, cli); // the command is blocked reading the file
      try {
        await writer.opened;
        cli.child.kill('SIGINT');
        const r = await cli.done;
        expect([r.code, r.signal, r.stdout]).toEqual([null, 'SIGINT', '']);
      } finally {
        await writer.release();
      }
    },
    HANG_MS,
  );

  it(
    'bench interrupted before it starts: exit 1, one line, no result',
    async () => {
      const dir = tempDir();
      const cfg = writeConfig(dir, 'hooks.json', hooksOn('BeforeTool', [printing({})]));
      const input = fifo(dir, 'input.json');
      const cli = startCli(['bench', '-c', cfg, '-e', 'BeforeTool', '-i', input]);
      const writer = whenReaderOpens(input, cli);
      try {
        await writer.opened;
        cli.child.kill('SIGINT');
        const r = await cli.done;
        expect([r.code, r.stdout, r.stderr]).toEqual([
          1,
          '',
          'hookwarden: error: bench interrupted: no result\n',
        ]);
      } finally {
        await writer.release();
      }
    },
    HANG_MS,
  );
});
