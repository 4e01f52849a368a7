// How `hookwarden claude-code` starts: bin/hookwarden runs the adapter from its CommonJS bundle
// (dist/cli/bundle/claude-code.cjs), so the process never sets up Node's ES module loader (~7 ms on
// Node 20, per event Claude Code sends); its help and `install` are the ES module CLI's; and the ES
// module entry still runs the adapter itself when started directly.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bashInput } from '../helpers/claude-code.js';
import { runCli, runProgram } from '../helpers/cli.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';

const TRACER = fileURLToPath(new URL('../fixtures/trace-esm-loader.cjs', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/cli/bundle/main.js', import.meta.url));

const GUARD = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [{ type: 'command', command: 'grep -q "rm -rf" && { echo "no rm" >&2; exit 2; }; exit 0' }],
      },
    ],
  },
};
const READ = { ...bashInput('x'), tool_name: 'Read', tool_input: { file_path: '/etc/hosts' } };

describe('hookwarden claude-code: the entry', () => {
  const dir = tempDir();
  const guard = writeConfig(dir, 'settings.json', GUARD);

  it.each([
    ['no hook can run', READ, 0, ''],
    ['a hook runs in the process and blocks', bashInput('rm -rf /'), 2, 'no rm\n'],
    ['a hook runs in the process and allows', bashInput('ls'), 0, ''],
  ])('runs without the ES module loader when %s', async (_what, input, code, stderr) => {
    const trace = join(tempDir(), 'esm.txt');
    const r = await runCli(['claude-code', '-c', guard], {
      stdin: JSON.stringify(input),
      nodeArgs: ['--require', TRACER],
      env: { ...process.env, HW_TRACE_ESM: trace },
    });
    expect([r.code, r.stderr]).toEqual([code, stderr]);
    const loaded = readFileSync(trace, 'utf8').split('\n');
    expect(loaded).not.toContain('module_job');
    expect(loaded).not.toContain('translators');
  });

  it('the tracer sees the ES module loader where it is used (another command)', async () => {
    const trace = join(tempDir(), 'esm.txt');
    const r = await runCli(['--version'], {
      nodeArgs: ['--require', TRACER],
      env: { ...process.env, HW_TRACE_ESM: trace },
    });
    expect(r.code).toBe(0);
    expect(readFileSync(trace, 'utf8').split('\n')).toContain('module_job');
  });

  it.each([
    [['claude-code', '--help'], /^Usage: hookwarden claude-code /],
    [['claude-code', 'install', '--help'], /^Usage: hookwarden claude-code install /],
  ])('%j is the ES module CLI (commander help, exit 0)', async (args, usage) => {
    const r = await runCli(args);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(usage);
  });

  it('the ES module entry (dist/cli/bundle/main.js) answers as bin/hookwarden does', async () => {
    for (const [input, code, stderr] of [
      [bashInput('rm -rf /'), 2, 'no rm\n'],
      [READ, 0, ''],
    ] as const) {
      const stdin = JSON.stringify(input);
      const viaMain = await runProgram(process.execPath, [MAIN, 'claude-code', '-c', guard], { stdin });
      const viaBin = await runCli(['claude-code', '-c', guard], { stdin });
      expect([viaMain.code, viaMain.stderr]).toEqual([code, stderr]);
      expect(viaMain).toEqual(viaBin);
    }
  });
});
