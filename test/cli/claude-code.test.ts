// `hookwarden claude-code` as Claude Code runs it: a real subprocess fed one Claude Code hook input
// on stdin, answering with an exit code, stdout and stderr.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bashInput, ccCommand, ccSettings } from '../helpers/claude-code.js';
import { type LiveCli, runCli, startCli } from '../helpers/cli.js';
import { hooksOn, tempDir, writeConfig, writeFile } from '../helpers/fixture.js';
import { settleMarked } from '../helpers/processes.js';

const HANG_MS = 60_000;
const TRACER = fileURLToPath(new URL('../fixtures/trace-modules.mjs', import.meta.url));

const bash = bashInput;
const cmd = ccCommand;
const settings = ccSettings;

function adapter(args: string[], input: unknown, env: NodeJS.ProcessEnv = {}) {
  return runCli(['claude-code', ...args], {
    stdin: typeof input === 'string' ? input : JSON.stringify(input),
    env: { ...process.env, ...env },
  });
}

const GUARD = settings(
  'PreToolUse',
  [cmd('grep -q "rm -rf" && { echo "no recursive deletes" >&2; exit 2; }; exit 0')],
  'Bash',
);

describe('hookwarden claude-code', () => {
  const dir = tempDir();
  const guard = writeConfig(dir, 'settings.json', GUARD);

  it('answers nothing (exit 0, no output) when no hook can run, without loading the dispatcher', async () => {
    const trace = join(tempDir(), 'modules.txt');
    const r = await runCli(['claude-code', '-c', guard], {
      stdin: JSON.stringify({ ...bash('x'), tool_name: 'Read', tool_input: { file_path: '/etc/hosts' } }),
      nodeArgs: ['--import', TRACER],
      env: { ...process.env, HW_TRACE_MODULES: trace },
    });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    const modules = readFileSync(trace, 'utf8').split('\n');
    expect(
      modules.filter((m) =>
        /[\\/](executor|schemas|run|dispatch-path)-[^/]*\.js$|claude-code-full-[^/]*\.cjs$|node:child_process$|commander/.test(
          m,
        ),
      ),
    ).toEqual([]);
  });

  it('blocks what a guard denies with exit 2: exit 2, the reason on stderr, the decision on stdout', async () => {
    const r = await adapter(['-c', guard], bash('rm -rf /'));
    expect([r.code, r.stderr]).toEqual([2, 'no recursive deletes\n']);
    expect(JSON.parse(r.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no recursive deletes',
      },
    });
    const ok = await adapter(['-c', guard], bash('ls'));
    expect([ok.code, ok.stdout, ok.stderr]).toEqual([0, '', '']);
  });

  it("passes on a guard's allow, its rewrite and its context as Claude Code's PreToolUse output", async () => {
    const answer = {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: 'safe',
        updatedInput: { command: 'ls -la' },
        additionalContext: 'listing',
      },
    };
    const cfg = writeConfig(
      dir,
      'allow.json',
      settings('PreToolUse', [cmd(`echo '${JSON.stringify(answer)}'`)]),
    );
    const r = await adapter(['-c', cfg], bash('ls'));
    expect([r.code, JSON.parse(r.stdout)]).toEqual([0, answer]);
  });

  it.each([
    ['UserPromptSubmit', { prompt: 'my password is hunter2' }, 2, { decision: 'block', reason: 'secret' }],
    ['Stop', { stop_hook_active: false }, 0, { decision: 'block', reason: 'secret' }],
    ['PreCompact', { trigger: 'manual' }, 2, { decision: 'block', reason: 'secret' }],
  ])('%s: a hook exiting 2 → exit %i and %j', async (event, fields, code, stdout) => {
    const cfg = writeConfig(dir, `${event}.json`, settings(event, [cmd('echo secret >&2; exit 2')]));
    const r = await adapter(['-c', cfg], { session_id: 's1', hook_event_name: event, ...fields });
    expect([r.code, JSON.parse(r.stdout)]).toEqual([code, stdout]);
    expect(r.stderr).toBe(code === 2 ? 'secret\n' : '');
  });

  it('denies a PermissionRequest with its decision object, exit 0', async () => {
    const deny = {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'not on main' },
      },
    };
    const cfg = writeConfig(
      dir,
      'perm.json',
      settings('PermissionRequest', [cmd(`echo '${JSON.stringify(deny)}'`)]),
    );
    const r = await adapter(['-c', cfg], { ...bash('git push'), hook_event_name: 'PermissionRequest' });
    expect([r.code, JSON.parse(r.stdout)]).toEqual([0, deny]);
  });

  it('keeps config warnings out of the reason Claude is shown, and gives them to the debug log otherwise', async () => {
    const cfg = writeConfig(dir, 'warned.json', {
      hooks: { ...GUARD.hooks, PlatformAlert: [{ hooks: [cmd('x')] }] },
    });
    const denied = await adapter(['-c', cfg], bash('rm -rf /'));
    expect([denied.code, denied.stderr]).toEqual([2, 'no recursive deletes\n']);
    const passed = await adapter(['-c', cfg], bash('ls'));
    expect(passed.code).toBe(0);
    expect(passed.stderr).toMatch(/^hookwarden: warning: .*warned.json: hooks.PlatformAlert: unknown event/);
  });

  it('runs hooks in $CLAUDE_PROJECT_DIR by default', async () => {
    const project = tempDir();
    const print = cmd(
      `printf '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"%s"}}' "$PWD"`,
    );
    const cfg = writeConfig(dir, 'pwd.json', settings('SessionStart', [print]));
    const r = await adapter(
      ['-c', cfg],
      { session_id: 's1', hook_event_name: 'SessionStart', source: 'startup' },
      {
        CLAUDE_PROJECT_DIR: project,
      },
    );
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toBe(project);
  });

  it("appends a SessionStart hook's sessionEnv to Claude Code's CLAUDE_ENV_FILE, quoted, loader variables refused", async () => {
    const envFile = writeFile(join(tempDir(), 'env.sh'), 'export EARLIER=1\n');
    const js = {
      type: 'js',
      code: `export default () => ({ sessionEnv: { GREETING: "it's me", LD_PRELOAD: "/x.so" } })`,
    };
    const cfg = writeConfig(dir, 'env.json', hooksOn('SessionStart', [js]));
    // A JS hook is sandboxed: GREETING (not on the inert list) passes by the policy's allow.
    const policy = writeConfig(dir, 'env-policy.json', { sessionEnv: { allow: ['GREETING'] } });
    const r = await adapter(
      ['-c', cfg, '-p', policy],
      { session_id: 's1', hook_event_name: 'SessionStart', source: 'startup' },
      {
        CLAUDE_ENV_FILE: envFile,
      },
    );
    expect(r.code).toBe(0);
    expect(readFileSync(envFile, 'utf8')).toBe(`export EARLIER=1\nexport GREETING='it'\\''s me'\n`);
    expect(JSON.parse(r.stdout).systemMessage).toMatch(
      /^hookwarden: hook ".*": sessionEnv \(LD_PRELOAD\): "LD_PRELOAD" is read by the dynamic loader.*: not applied$/,
    );
    const sourced = spawnSync('sh', ['-c', `. '${envFile}'; printf %s "$GREETING"`], { encoding: 'utf8' });
    expect(sourced.stdout).toBe("it's me");
  });
});

describe('hookwarden claude-code fails closed', () => {
  const dir = tempDir();
  const guard = writeConfig(dir, 'settings.json', GUARD);
  const deep = (n: number): unknown => (n === 0 ? 'x' : { a: deep(n - 1) });
  const routed = writeConfig(
    dir,
    'routed.json',
    settings('PreToolUse', [cmd(`node /opt/hookwarden/bin/hookwarden claude-code --config '${guard}'`)]),
  );

  it.each([
    ['stdin that is not JSON', ['-c', guard], 'rm -rf /', 2, /^hookwarden: the input on stdin is not JSON/],
    ['no hook_event_name', ['-c', guard], { tool_name: 'Bash' }, 2, /hook_event_name: expected one of/],
    ['an unknown hook_event_name', ['-c', guard], { hook_event_name: 'BeforeTool' }, 2, /got "BeforeTool"/],
    [
      'tool_input that is not an object',
      ['-c', guard],
      { ...bash('x'), tool_input: 'rm -rf /' },
      2,
      /tool_input: expected an object/,
    ],
    [
      'tool_name that is not a string',
      ['-c', guard],
      { ...bash('x'), tool_name: ['Bash'] },
      2,
      /tool_name: expected a string/,
    ],
    [
      'input nested too deep',
      ['-c', guard],
      { ...bash('x'), extra: deep(70) },
      2,
      /nested deeper than 64 levels/,
    ],
    [
      'a flag it does not know',
      ['-c', guard, '--confg', 'x'],
      bash('ls'),
      2,
      /Unknown option '--confg'.*--help/,
    ],
    ['no --config', [], bash('ls'), 2, /needs at least one --config/],
    ['a config that is missing', ['-c', join(dir, 'nope.json')], bash('ls'), 2, /nope.json: file not found/],
    [
      'a config that routes through the adapter itself',
      ['-c', routed],
      bash('ls'),
      2,
      /routes PreToolUse through `hookwarden claude-code`.*would run the adapter again/,
    ],
    [
      'an event that cannot block, with a missing config',
      ['-c', join(dir, 'nope.json')],
      { hook_event_name: 'Stop' },
      1,
      /file not found/,
    ],
    [
      'an event that cannot block, with bad input',
      ['-c', guard],
      { hook_event_name: 'Notification', session_id: 7 },
      1,
      /session_id: expected a string/,
    ],
  ])('on %s: exit %i, one line on stderr', async (_what, args, input, code, message) => {
    const r = await adapter(args as string[], input);
    expect(r.code).toBe(code);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^hookwarden: [^\n]*\n$/);
    expect(r.stderr).toMatch(message);
  });

  it('on input over 8 MiB: exit 2, without reading the rest', async () => {
    const cli = startCli(['claude-code', '-c', guard], { stdin: 'pipe' });
    // The adapter stops reading and answers: the rest of the write finds the pipe closed.
    cli.child.stdin?.on('error', () => {});
    cli.child.stdin?.end(JSON.stringify(bash('x'.repeat(9 * 1024 * 1024))));
    const r = await cli.done;
    expect([r.code, r.stderr]).toEqual([
      2,
      'hookwarden: the input on stdin is larger than 8388608 bytes (limits.maxInputBytes)\n',
    ]);
  });

  it('on a PermissionRequest it cannot answer: the JSON deny', async () => {
    const r = await adapter(['-c', join(dir, 'nope.json')], {
      ...bash('ls'),
      hook_event_name: 'PermissionRequest',
    });
    expect([r.code, JSON.parse(r.stdout).hookSpecificOutput.decision.behavior]).toEqual([0, 'deny']);
  });

  it('with no input at all (stdin is /dev/null): exit 2', async () => {
    const cli = startCli(['claude-code', '-c', guard]);
    const r = await cli.done;
    expect([r.code, r.stderr]).toEqual([
      2,
      'hookwarden: no input on stdin: Claude Code pipes each hook its event as JSON\n',
    ]);
  });
});

/** Resolves with what a hook writes to the FIFO `path`; fails if the CLI ends first. */
async function hookStarted(path: string, cli: LiveCli): Promise<string> {
  const ended = cli.done.then((r) => {
    throw new Error(`the CLI ended (${r.code}) before the hook started: ${r.stderr}`);
  });
  return Promise.race([readFile(path, 'utf8'), ended]);
}

describe('hookwarden claude-code cut short', () => {
  it.each([
    ['PreToolUse', 'SIGTERM', 2, /^interrupted \(SIGTERM\) before a verdict\n$/],
    ['Notification', 'SIGINT', 1, /^interrupted before every hook ran\n/],
  ] as const)(
    '%s, %s while a hook runs: the hook is killed; exit %i',
    async (event, signal, code, stderr) => {
      const dir = tempDir();
      const started = join(dir, 'started');
      spawnSync('mkfifo', [started]);
      const mark = `cc-interrupt-${event}-${process.pid}`;
      const hook = { command: `echo started > '${started}'; exec sleep 300`, env: { HW_TEST_MARK: mark } };
      const cfg = writeConfig(dir, 'hooks.json', hooksOn(event, [hook]));
      const cli = startCli(['claude-code', '-c', cfg], { stdin: 'pipe' });
      cli.child.stdin?.end(JSON.stringify({ ...bash('ls'), hook_event_name: event, message: 'hi' }));
      expect(await hookStarted(started, cli)).toBe('started\n');
      cli.child.kill(signal);
      const r = await cli.done;
      expect([r.code, r.signal]).toEqual([code, null]);
      expect(r.stderr).toMatch(stderr);
      // The killed hook may still be on its way out when the CLI has exited: wait for it, bounded.
      expect(await settleMarked('HW_TEST_MARK', mark)).toEqual([]);
    },
    HANG_MS,
  );

  it(
    '--timeout: no verdict in time blocks (exit 2), and the hook is killed',
    async () => {
      const dir = tempDir();
      const mark = `cc-timeout-${process.pid}`;
      const hook = { command: 'exec sleep 300', env: { HW_TEST_MARK: mark } };
      const cfg = writeConfig(dir, 'hooks.json', hooksOn('BeforeTool', [hook]));
      const r = await adapter(['-c', cfg, '--timeout', '1'], bash('ls'));
      expect([r.code, r.stderr]).toEqual([
        2,
        'no verdict within --timeout 1 s: running hooks were stopped\n',
      ]);
      // The killed hook may still be on its way out when the CLI has exited: wait for it, bounded.
      expect(await settleMarked('HW_TEST_MARK', mark)).toEqual([]);
    },
    HANG_MS,
  );
});
