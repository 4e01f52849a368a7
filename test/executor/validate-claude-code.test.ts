// `hookwarden validate` on real Claude Code settings files (issue 24, items 12 and 5): a command is
// judged the way the shell that runs it will (bash, its builtins, `~/` and the variables Claude
// Code sets), the adapter hooks `install` wrote are not second-guessed, and a PermissionRequest hook
// that answers with PreToolUse's permissionDecision is warned about before it silently approves
// nothing.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Claude Code's ${NAME} placeholders, written as in its files
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/index.js';
import { ccCommand, ccSettings } from '../helpers/claude-code.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';

const cmd = ccCommand;
const settings = ccSettings;

/** `validate --json` as a user runs it, with `home` as $HOME. */
async function validate(args: string[], home: string, cwd?: string) {
  const r = await runCli(['validate', ...args, '--json'], {
    env: { ...process.env, HOME: home },
    ...(cwd === undefined ? {} : { cwd }),
  });
  const report = JSON.parse(r.stdout) as {
    diagnostics: { severity: string; path: string; message: string }[];
  };
  return { code: r.code, lines: report.diagnostics.map((d) => `${d.severity} ${d.path}: ${d.message}`) };
}

describe('validate judges a Claude Code command as bash will run it (item 12)', () => {
  it('a ~/ command is the home folder, not a folder "~" in the project', async () => {
    const home = tempDir();
    const project = tempDir();
    writeFile(join(home, '.claude/hooks/guard.sh'), '#!/bin/bash\nexit 0\n', 0o755);
    const cfg = writeConfig(project, 'settings.json', {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              cmd('~/.claude/hooks/guard.sh'),
              cmd('~/.claude/hooks/gone.sh'),
              cmd('bash ~/.claude/hooks/gone.py'),
            ],
          },
        ],
      },
    });
    const r = await validate([cfg, '--root', project], home);
    expect(r.lines).toEqual([
      `error hooks.PreToolUse[0].hooks[1]: the command's program ${home}/.claude/hooks/gone.sh does not exist; the hook would fail with spawn_failed`,
      `error hooks.PreToolUse[0].hooks[2]: the command's script ${home}/.claude/hooks/gone.py does not exist; the hook would fail`,
    ]);
    expect(r.lines.join('\n')).not.toContain(`${project}/~`);
  });

  it.each([
    ['exit 0'],
    ['exit 2'],
    ['[[ "$(jq -r .tool_input.command)" == *"rm -rf"* ]] && exit 2 || exit 0'],
    ['set -euo pipefail; read -r input; echo "$input" >/dev/null'],
    ['cd "$CLAUDE_PROJECT_DIR" && ./bin/check'],
    ['source ./bin/env.sh && true'],
    ['declare -a words=(a b); echo "${words[@]}"'],
    ['FOO=1 "$CLAUDE_PROJECT_DIR"/bin/check'],
    ['$CLAUDE_PROJECT_DIR/bin/check'],
    ['"${CLAUDE_PROJECT_DIR}/bin/check" --strict'],
    ['node "$CLAUDE_PROJECT_DIR/bin/check.js"'],
  ])(
    '%s: no report (a builtin, a bash keyword, or a path that exists under the project)',
    async (command) => {
      const home = tempDir();
      const project = tempDir();
      writeFile(join(project, 'bin/check'), '#!/bin/sh\n', 0o755);
      writeFile(join(project, 'bin/check.js'), '');
      writeFile(join(project, 'bin/env.sh'), '');
      const cfg = writeConfig(tempDir(), 'settings.json', settings('PreToolUse', [cmd(command)], 'Bash'));
      expect(await validate([cfg, '--root', project], home)).toEqual({ code: 0, lines: [] });
    },
  );

  it('a hookwarden-dialect command keeps /bin/sh: [[ is reported there, not in a Claude Code file', async () => {
    const home = tempDir();
    const dir = tempDir();
    const own = writeConfig(dir, 'hooks.json', {
      hooks: { BeforeTool: [{ hooks: [{ name: 'g', command: '[[ -n "$X" ]] && exit 2; exit 0' }] }] },
    });
    expect((await validate([own], home)).lines).toEqual([
      expect.stringMatching(/^warning hooks\.BeforeTool\[0\]\.hooks\[0\]: "\[\[" is not a \/bin\/sh command/),
    ]);
  });

  it('exec form: the placeholders Claude Code fills in each argument are checked after substitution', async () => {
    const home = tempDir();
    const project = tempDir();
    writeFile(join(project, 'hooks/guard.py'), 'print()\n');
    const cfg = writeConfig(tempDir(), 'settings.json', {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              { type: 'command', command: 'python3', args: ['${CLAUDE_PROJECT_DIR}/hooks/guard.py'] },
              { type: 'command', command: 'python3', args: ['${CLAUDE_PROJECT_DIR}/hooks/missing.py'] },
            ],
          },
        ],
      },
    });
    const r = await validate([cfg, '--root', project], home);
    expect(r.lines).toEqual([
      `error hooks.PreToolUse[0].hooks[1]: the command's argument ${project}/hooks/missing.py does not exist; the hook would fail`,
    ]);
  });

  it('the timeouts install itself wrote are not warned about (corpus files through install --write, then validate)', async () => {
    const home = tempDir();
    const corpus = new URL('../fixtures/claude-code-corpus/', import.meta.url);
    for (const name of [
      '08-thedotmack__claude-mem__plugin_hooks_hooks.json',
      '02-Isaqdn03__claude-code-hooks-mastery__.claude_settings.json',
    ]) {
      const dir = tempDir();
      mkdirSync(join(dir, '.claude'));
      const file = join(dir, '.claude', 'settings.json');
      copyFileSync(new URL(name, corpus), file);
      // Hooks summed (600 s each by default): the adapter's timeout is above what one hook may declare.
      const installed = await runCli(['claude-code', 'install', file, '--write'], {
        env: { ...process.env, HOME: home },
      });
      expect([name, installed.code]).toEqual([name, 0]);
      const r = await validate([file, '--root', dir], home);
      expect([name, r.lines.filter((l) => /timeout/i.test(l))]).toEqual([name, []]);
      if (name.startsWith('02-')) expect(readFileSync(file, 'utf8')).toMatch(/"timeout": 1206/);
    }
  });

  it("a plain hook over the limit is still warned about (only the adapter's timeout is not judged)", async () => {
    const cfg = writeConfig(
      tempDir(),
      'settings.json',
      settings('PreToolUse', [cmd('exit 0', { timeout: 5000 })]),
    );
    expect((await validate([cfg], tempDir())).lines).toEqual([
      expect.stringMatching(/timeout: "timeout" is in SECONDS: 5000 s/),
      expect.stringMatching(
        /timeout: timeout 5000000 ms is above limits.maxDeclaredBudgetMs \(600000\) and was clamped/,
      ),
    ]);
  });
});

describe('validate warns about a PermissionRequest hook that answers with permissionDecision (item 5)', () => {
  const approve = JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PermissionRequest', permissionDecision: 'allow' },
  });
  const right = JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } },
  });
  const WARNING =
    /this PermissionRequest hook answers with permissionDecision \((.*)\), PreToolUse's field: PermissionRequest reads only hookSpecificOutput\.decision/;

  it.each([
    ['an inline command', (_d: string) => cmd(`echo '${approve}'`), 'its command'],
    [
      'a script it runs',
      (d: string) => cmd(`bash ${writeFile(join(d, 'approve.sh'), `#!/bin/bash\necho '${approve}'\n`)}`),
      'approve.sh',
    ],
    [
      'a program file',
      (d: string) => cmd(writeFile(join(d, 'approve'), `#!/bin/sh\necho '${approve}'\n`, 0o755)),
      'approve',
    ],
    [
      'an exec-form script',
      (d: string) => ({
        type: 'command',
        command: 'python3',
        args: [
          writeFile(
            join(d, 'approve.py'),
            `import json\nprint(json.dumps({"hookSpecificOutput": {"permissionDecision": "allow"}}))\n`,
          ),
        ],
      }),
      'approve.py',
    ],
    [
      'a JS hook',
      (_d: string) => ({
        type: 'js',
        code: `export default () => ({ hookSpecificOutput: { hookEventName: "PermissionRequest", permissionDecision: "allow" } })`,
      }),
      'its JS source',
    ],
  ])('%s', async (_what, hook, where) => {
    const dir = tempDir();
    const cfg = writeConfig(dir, 'settings.json', settings('PermissionRequest', [hook(dir)], 'Bash'));
    const r = await validateConfig({ config: cfg, root: dir });
    const warned = r.diagnostics.filter((d) => WARNING.test(d.message));
    expect(warned).toHaveLength(1);
    expect(warned[0]!.message.match(WARNING)![1]).toContain(where);
    expect(warned[0]).toMatchObject({ severity: 'warning', path: 'hooks.PermissionRequest[0].hooks[0]' });
  });

  it('not for the right answer, a script that answers both events, or the same answer on PreToolUse', async () => {
    const dir = tempDir();
    const both = writeFile(
      join(dir, 'both.sh'),
      `#!/bin/bash\nif [ "$E" = PreToolUse ]; then echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'; else echo '${right}'; fi\n`,
    );
    const cfg = writeConfig(dir, 'settings.json', {
      hooks: {
        PermissionRequest: [{ hooks: [cmd(`echo '${right}'`), cmd(`bash ${both}`)] }],
        PreToolUse: [{ hooks: [cmd(`echo '${approve}'`)] }],
      },
    });
    const r = await validateConfig({ config: cfg, root: dir });
    expect(r.diagnostics).toEqual([]);
  });
});
