// The CLI runs async hooks on its in-process queue: the result is printed first, the process exits
// once they finished (--async-wait bounds it), rewakes go to stderr, records to --audit.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from '../helpers/cli.js';
import { FifoLines, mkfifo, waitingHook } from '../helpers/fifo.js';
import { hooksOn, tempDir, writeConfig, writeFile } from '../helpers/fixture.js';

const TRACER = fileURLToPath(new URL('../fixtures/trace-modules.mjs', import.meta.url));

const readRecords = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('hookwarden dispatch with async hooks', () => {
  const dir = tempDir();
  const marker = join(dir, 'ran');
  const config = writeConfig(
    dir,
    'hooks.json',
    hooksOn('BeforeTool', [
      {
        type: 'command',
        command: `echo ran > '${marker}'; echo 'no secrets please' >&2; exit 2`,
        asyncRewake: true,
        name: 'bg',
      },
    ]),
  );
  const stdin = JSON.stringify({ toolName: 'Bash', toolInput: { command: 'ls' } });

  it('prints the verdict without the async answer, then runs it: rewake on stderr, records in --audit', async () => {
    const audit = join(dir, 'audit.jsonl');
    const r = await runCli(['dispatch', 'BeforeTool', '-c', config, '--audit', audit], { stdin });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.decision).toBe('passthrough');
    expect(result.hooks[0]).toMatchObject({ id: 'bg', outcome: 'queued' });
    expect(readFileSync(marker, 'utf8')).toBe('ran\n');
    const line = r.stderr.split('\n').find((l) => l.startsWith('hookwarden: rewake: '))!;
    expect(JSON.parse(line.slice('hookwarden: rewake: '.length))).toMatchObject({
      asyncId: result.hooks[0].asyncId,
      reason: expect.stringContaining('no secrets please'),
    });
    const records = readRecords(audit);
    expect(records.map((x) => x.outcome)).toEqual(['queued', 'deny']);
    expect(records[1]).toMatchObject({ asyncId: result.hooks[0].asyncId, attempts: 1 });
  });

  it('--async-wait 0 aborts them, recorded not-run; a bad value is a usage error', async () => {
    const audit = join(dir, 'audit0.jsonl');
    const r = await runCli(['dispatch', 'BeforeTool', '-c', config, '--audit', audit, '--async-wait', '0'], {
      stdin,
    });
    expect(r.code).toBe(0);
    const records = readRecords(audit);
    expect(records.map((x) => [x.outcome, x.errorCode])).toEqual([
      ['queued', undefined],
      ['not-run', 'pool_closed'],
    ]);
    const bad = await runCli(['dispatch', 'BeforeTool', '-c', config, '--async-wait', '-1'], { stdin });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--async-wait: expected a whole number');
  });

  it("Ctrl-C while it waits for async hooks aborts them at once (a running one is killed, recorded aborted); the exit status stays the result's", async () => {
    const started = mkfifo(dir, 'started');
    const release = mkfifo(dir, 'release'); // never written: only the abort ends the hook
    const slow = writeConfig(
      dir,
      'slow.json',
      hooksOn('BeforeTool', [{ ...waitingHook(started, release), name: 'slow', async: true }]),
    );
    const audit = join(dir, 'audit-int.jsonl');
    const inputFile = writeFile(join(dir, 'input.json'), stdin);
    const lines = new FifoLines(started);
    const cli = startCli([
      'dispatch',
      'BeforeTool',
      '-c',
      slow,
      '-i',
      inputFile,
      '--audit',
      audit,
      '--async-wait',
      '600000',
    ]);
    await cli.stdoutIncludes('"decision"'); // the answer is out
    expect(await lines.next()).toBe('started'); // the async hook runs
    cli.child.kill('SIGINT');
    const r = await cli.done;
    lines.close();
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hooks[0]).toMatchObject({ id: 'slow', outcome: 'queued' });
    const records = readRecords(audit);
    expect(records.map((x) => [x.outcome, x.errorCode])).toEqual([
      ['queued', undefined],
      ['error', 'aborted'],
    ]);
  });

  it('a dispatch without Redis or a rate loads neither BullMQ nor rate-limiter-flexible (~140 ms of modules)', async () => {
    const trace = join(tempDir(), 'modules.txt');
    const r = await runCli(['dispatch', 'BeforeTool', '-c', config, '--async-wait', '0'], {
      stdin,
      nodeArgs: ['--import', TRACER],
      env: { ...process.env, HW_TRACE_MODULES: trace },
    });
    expect(r.code).toBe(0);
    const modules = readFileSync(trace, 'utf8').split('\n');
    // Whatever file the bundler put them in: BullMQ's script names and rate-limiter-flexible's key
    // prefix are strings no minifier changes.
    const loaded = modules
      .map((m) => (m.startsWith('file:') ? fileURLToPath(m) : m))
      .filter((m) => /\.c?js$/.test(m) && existsSync(m));
    expect(loaded.some((m) => m.includes('dispatch-path-'))).toBe(true);
    expect(loaded.filter((m) => /moveToActive|rlflx/.test(readFileSync(m, 'utf8')))).toEqual([]);
  });
});
