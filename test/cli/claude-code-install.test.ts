// `hookwarden claude-code install`: the plan (what moves, what stays, matchers, timeouts), the
// printed block, --write, and the refusals that make an adapter hook never run the adapter again.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstCommandWords } from '../../src/cli/adapter/install-state.js';
import { keptWhy, planInstall, unionMatcher } from '../../src/cli/claude-code/install-plan.js';
import { runsAdapter, shellQuote, shellWords } from '../../src/cli/claude-code/routing.js';
import { ccMatches } from '../helpers/claude-code.js';
import { CLIENT, runCli } from '../helpers/cli.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({
  type: 'command',
  command,
  ...extra,
});
type Block = { hooks: Record<string, { matcher?: string; hooks: Record<string, unknown>[] }[]> };

describe('the adapter group of an event', () => {
  it.each([
    ['PreToolUse', ['Bash', 'Edit|Write', 'Bash'], 'Bash|Edit|Write'],
    ['PreToolUse', ['Bash', undefined], undefined],
    ['PreToolUse', ['Bash', '*'], undefined],
    ['PreToolUse', ['Edit, Write'], 'Edit|Write'],
    ['PreToolUse', ['Bash', 'mcp__.*__write.*'], '^(?:Bash)$|(?:mcp__.*__write.*)'],
    ['SessionStart', ['startup', 'resume'], 'startup|resume'],
    ['Stop', ['anything'], undefined], // Stop has no matcher
    ['FileChanged', ['.envrc', '.env|data.csv'], '.envrc|.env|data.csv'],
  ])('%s with group matchers %j: %s', (event, matchers, expected) => {
    expect(unionMatcher(event, matchers)).toBe(expected);
  });

  it('matches, by Claude Code rules, whenever one of the groups does', () => {
    const groups = ['Bash', 'mcp__.*__write.*', 'Edit|Write'];
    const union = unionMatcher('PreToolUse', groups);
    for (const tool of ['Bash', 'Edit', 'Write', 'mcp__fs__write_file', 'Read', 'NotebookEdit', 'BashOutput'])
      expect(ccMatches(union, tool), tool).toBe(groups.some((g) => ccMatches(g, tool)));
  });

  it('keeps with Claude Code the handlers the adapter does not run the same way', () => {
    expect(keptWhy(cmd('x'))).toBeUndefined();
    expect(keptWhy({ type: 'prompt', prompt: 'ok?' })).toMatch(
      /"type": "prompt" hooks are run by Claude Code/,
    );
    expect(keptWhy(cmd('x', { async: true }))).toMatch(/background/);
    const plan = planInstall({
      PreToolUse: [{ matcher: 'Bash', hooks: [cmd('guard.sh'), cmd('log.sh', { async: true })] }],
      Stop: [{ hooks: [{ type: 'prompt', prompt: 'done?' }] }],
      WorktreeCreate: [{ hooks: [cmd('mk.sh')] }],
      Imaginary: [{ hooks: [cmd('x')] }],
    });
    expect(plan.copy).toEqual({ PreToolUse: [{ matcher: 'Bash', hooks: [cmd('guard.sh')] }] });
    expect(plan.events.get('PreToolUse')?.kept).toEqual([
      { matcher: 'Bash', hooks: [cmd('log.sh', { async: true })] },
    ]);
    expect(plan.notes).toEqual([
      'PreToolUse[0]: left with Claude Code: background (async) hooks: Claude Code runs them without holding the tool call, while the adapter process would wait for them',
      'Stop[0]: left with Claude Code: "type": "prompt" hooks are run by Claude Code itself',
      'WorktreeCreate: left with Claude Code: its command hooks answer with the worktree path on stdout, which the adapter cannot pass on',
      'Imaginary: left with Claude Code: hookwarden does not know this event',
    ]);
  });
});

describe('adapter hooks are recognised', () => {
  it.each([
    [cmd("'/usr/bin/node' '/opt/hook warden/bin/hookwarden' claude-code --config x.json"), true],
    [cmd('npx hookwarden claude-code -c x.json'), true],
    [{ type: 'command', command: 'node', args: ['/opt/hookwarden/bin/hookwarden', 'claude-code'] }, true],
    [cmd('hookwarden dispatch PreToolUse -c x.json'), false],
    [cmd('claude-code --version'), false],
    [cmd('echo hookwarden; claude-code-helper'), false],
  ])('%j: %s', (handler, expected) => {
    expect(runsAdapter(handler)).toBe(expected);
  });

  it('quotes a word for sh only when it must, and reads it back', () => {
    const words = ['/usr/bin/node', "/tmp/it's a dir/x.json", '$HOME', '--timeout', ''];
    const line = words.map(shellQuote).join(' ');
    expect(line).toBe(`/usr/bin/node '/tmp/it'\\''s a dir/x.json' '$HOME' --timeout ''`);
    expect(shellWords(line)).toEqual(words);
  });
});

describe('hookwarden claude-code install', () => {
  const settings = {
    permissions: { allow: ['Bash(npm test)'] },
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [cmd('.claude/hooks/a.sh', { timeout: 30 }), cmd('.claude/hooks/b.sh', { timeout: 10 })],
        },
        { matcher: 'Edit|Write', hooks: [cmd('.claude/hooks/c.sh', { timeout: 5 })] },
      ],
      SessionStart: [{ hooks: [cmd('ctx.sh', { timeout: 20 }), cmd('more.sh', { timeout: 40 })] }],
      Stop: [{ hooks: [{ type: 'prompt', prompt: 'done?' }] }],
    },
  };

  it('prints the block: one adapter hook per event, its matcher and a timeout covering the hooks', async () => {
    const dir = tempDir();
    const file = writeConfig(dir, 'settings.json', settings);
    const r = await runCli(['claude-code', 'install', file]);
    expect(r.code, r.stderr).toBe(0);
    const block = JSON.parse(r.stdout) as Block;
    const adapterOf = (event: string) => block.hooks[event]![0]!;
    const copy = join(dir, 'settings.hookwarden.json');
    // PreToolUse runs its hooks one after the other: 30 + 10 + 5 s, 0.5 s kill grace each, 2 s.
    expect(adapterOf('PreToolUse').matcher).toBe('Bash|Edit|Write');
    expect(adapterOf('PreToolUse').hooks).toEqual([
      {
        type: 'command',
        command: expect.stringMatching(/ \|\| \{ s=\$\?; .*exit 2; \}$/),
        timeout: 52,
      },
    ]);
    // The words, then the guard: the fail-closed answer if the command cannot run at all.
    const command = adapterOf('PreToolUse').hooks[0]!.command as string;
    expect(firstCommandWords(command)).toEqual([
      ...`${CLIENT} ${process.execPath} ${join(process.cwd(), 'bin/hookwarden')} claude-code --timeout 49 --config`.split(
        ' ',
      ),
      copy,
    ]);
    // SessionStart runs them at once: the longest, 40.5 s, and 2 s.
    expect(adapterOf('SessionStart').hooks[0]).toMatchObject({ timeout: 46 });
    expect(adapterOf('SessionStart').matcher).toBeUndefined();
    // The prompt hook stays as it was.
    expect(block.hooks.Stop).toEqual(settings.hooks.Stop);
    expect(r.stderr).toMatch(/nothing written\. With --write/);
    expect(r.stderr).toMatch(/the hook command is hookwarden-client/);
    expect(existsSync(copy)).toBe(false);
  });

  it('--no-client writes the Node adapter command, and says so', async () => {
    const file = writeConfig(tempDir(), 'settings.json', settings);
    const r = await runCli(['claude-code', 'install', file, '--no-client']);
    const block = JSON.parse(r.stdout) as Block;
    const command = block.hooks.PreToolUse![0]!.hooks[0]!.command as string;
    expect(shellWords(command).slice(0, 3)).toEqual([
      process.execPath,
      join(process.cwd(), 'bin/hookwarden'),
      'claude-code',
    ]);
    expect(r.stderr).toMatch(/the hook command is the Node adapter \(--no-client\)/);
  });

  it('--socket: the adapter command forwards to that daemon socket (made absolute)', async () => {
    const dir = tempDir();
    const file = writeConfig(dir, 'settings.json', settings);
    const r = await runCli(['claude-code', 'install', file, '--socket', 'run/hw.sock'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const block = JSON.parse(r.stdout) as Block;
    const command = block.hooks.PreToolUse![0]!.hooks[0]!.command as string;
    const words = firstCommandWords(command);
    expect(words.slice(2, 3)).toEqual(['claude-code']);
    expect(words.slice(-2)).toEqual(['--socket', join(dir, 'run/hw.sock')]);
    expect(r.stderr).toMatch(/the hook command is the Node adapter \(--socket forwards to serve\)/);
    const empty = await runCli(['claude-code', 'install', file, '--socket', ' ']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('--socket: expected a path');
  });

  it('--write: the copy holds the hooks, the file gets the block and keeps the rest; a second install writes nothing', async () => {
    const dir = tempDir();
    const file = writeConfig(dir, 'settings.json', settings);
    const original = readFileSync(file, 'utf8');
    const r = await runCli(['claude-code', 'install', file, '--write']);
    expect(r.code, r.stderr).toBe(0);
    const copy = JSON.parse(readFileSync(join(dir, 'settings.hookwarden.json'), 'utf8'));
    expect(copy).toMatchObject({ dialect: 'claude-code', hooks: { PreToolUse: settings.hooks.PreToolUse } });
    expect(copy.hooks.Stop).toBeUndefined();
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written).toEqual({ permissions: settings.permissions, hooks: JSON.parse(r.stdout).hooks });
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe(original);

    const installed = readFileSync(file, 'utf8');
    const again = await runCli(['claude-code', 'install', file, '--write']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/routes through `hookwarden claude-code` already .*no hook was added since/);
    expect(again.stderr).toMatch(/is up to date: nothing to write/);
    expect(readFileSync(file, 'utf8')).toBe(installed);
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe(original);
    // And the adapter refuses the file as its config: it would run itself.
    const adapter = await runCli(['claude-code', '-c', file], {
      stdin: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: {} }),
    });
    expect([adapter.code, adapter.stderr]).toEqual([2, expect.stringMatching(/would run the adapter again/)]);
  });

  it.each([
    [
      'a hookwarden config',
      { hooks: { BeforeTool: [{ hooks: [cmd('x')] }] } },
      /hookwarden's event name "BeforeTool"/,
    ],
    [
      'a file with limits',
      { limits: {}, hooks: { PreToolUse: [{ hooks: [cmd('x')] }] } },
      /hookwarden's "limits" key/,
    ],
    ['FreeCode flat entries', { hooks: { PreToolUse: [{ name: 'g', command: 'x' }] } }, /flat hook entries/],
    ['no hooks', { permissions: {} }, /no "hooks" to route/],
    [
      'only hooks it leaves',
      { hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'x' }] }] } },
      /no hook the adapter runs/,
    ],
  ])('refuses %s (exit 1, nothing written)', async (_what, content, message) => {
    const dir = tempDir();
    const file = writeConfig(dir, 'settings.json', content);
    const r = await runCli(['claude-code', 'install', file, '--write']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(message);
    expect(existsSync(`${file}.bak`)).toBe(false);
  });

  it('never overwrites a hooks copy with other content', async () => {
    const dir = tempDir();
    const file = writeConfig(dir, 'settings.json', settings);
    writeConfig(dir, 'settings.hookwarden.json', { hooks: {} });
    const r = await runCli(['claude-code', 'install', file, '--write']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/settings\.hookwarden\.json exists \(with other content\)/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(settings);
  });
});
