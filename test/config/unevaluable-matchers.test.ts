// Trust invariant 3 for matchers: a pattern Claude Code evaluates as a JavaScript regex but the
// linear-time engine cannot (lookaround, backreferences, octal escapes…), or one that is not a
// valid regex at all, never becomes a list of exact names. In a policy file it is a policy failure
// (deny-capable events deny); elsewhere the group runs for every tool, with a warning; and
// `claude-code install` leaves such a group with Claude Code, so the guard still runs there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bashInput, runAsClaudeCode } from '../helpers/claude-code.js';
import { runCli } from '../helpers/cli.js';
import { hooksOn, input, tempDir, withExecutor, writeConfig, writeFile } from '../helpers/fixture.js';

const PATTERNS = [
  '^(?!Read$).*',
  '(Bash)\\1?',
  '(?<!x)Bash',
  '(?<t>B)\\k<t>?ash',
  'Bash\\01?',
  'B(?=a)ash',
  'Foo(|Bash',
];
const deny = { type: 'command', name: 'guard', command: 'echo "no $HOOK_TOOL_NAME" >&2; exit 2' };
const bash = () => input({ toolName: 'Bash', toolInput: { command: 'rm -rf /home' } });

describe.each(PATTERNS)('the matcher %j', (matcher) => {
  it('in a policy file: a policy failure, so deny-capable events deny', async () => {
    const dir = tempDir('hw-unev-');
    const policy = writeConfig(dir, 'policy.json', hooksOn('PreToolUse', [deny], { matcher }));
    const result = await withExecutor({ policy: [policy], root: dir }, (hw) =>
      hw.dispatch('BeforeTool', bash()),
    );
    expect(result).toMatchObject({ decision: 'deny', decidedBy: 'policy' });
    expect(result.reason).toContain('hooks.PreToolUse[0].matcher');
  });

  it('in a project or user file: the group runs for every tool, with a warning', async () => {
    const dir = tempDir('hw-unev-');
    const project = writeConfig(dir, 'project.json', hooksOn('PreToolUse', [deny], { matcher }));
    for (const config of [project, { path: project, scope: 'user' as const }]) {
      const { result, warnings } = await withExecutor(
        { config: [config], root: dir },
        async (hw, warnings) => ({
          result: await hw.dispatch('BeforeTool', bash()),
          warnings,
        }),
      );
      expect(result).toMatchObject({ decision: 'deny', reason: 'no Bash', decidedBy: 'guard' });
      expect(warnings).toEqual([
        expect.stringMatching(/^hooks\.PreToolUse\[0\]\.matcher: .*; the group runs for every tool/),
      ]);
    }
  });
});

describe('a trusted hook registered with such a matcher', () => {
  it.each(PATTERNS)('%j is refused (invalid_options): the platform fixes its own code', async (matcher) => {
    await withExecutor({ root: tempDir('hw-unev-') }, async (hw) => {
      expect(() =>
        hw.register({ event: 'BeforeTool', name: 't', matcher, handler: () => undefined }),
      ).toThrow(/register: matcher: /);
    });
  });
});

describe('claude-code install and a matcher hookwarden cannot evaluate', () => {
  it.each(PATTERNS.filter((p) => !p.startsWith('Foo')))(
    '%j: the group stays with Claude Code, which still blocks the call after --write',
    async (matcher) => {
      const dir = tempDir('hw-unev-install-');
      writeFile(join(dir, 'guard.sh'), '#!/bin/sh\necho "blocked by guard" >&2\nexit 2\n', 0o755);
      const settings = {
        hooks: {
          PreToolUse: [
            { matcher, hooks: [{ type: 'command', command: `${dir}/guard.sh` }] },
            { matcher: 'Edit', hooks: [{ type: 'command', command: 'true' }] },
          ],
        },
      };
      const file = writeConfig(dir, 'settings.json', settings);
      const env = { projectDir: dir };
      const before = await runAsClaudeCode(settings.hooks, bashInput('rm -rf /home'), env);
      expect(before).toMatchObject({ blocked: true, reason: 'blocked by guard' });
      const r = await runCli(['claude-code', 'install', file, '--write']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(
        `PreToolUse[0]: left with Claude Code: its matcher ${JSON.stringify(matcher)} cannot be evaluated by hookwarden`,
      );
      const installed = JSON.parse(readFileSync(file, 'utf8')) as { hooks: Record<string, unknown> };
      expect(installed.hooks.PreToolUse).toEqual([
        { matcher: 'Edit', hooks: [expect.objectContaining({ type: 'command' })] },
        settings.hooks.PreToolUse[0],
      ]);
      const after = await runAsClaudeCode(installed.hooks, bashInput('rm -rf /home'), env);
      expect(after).toMatchObject({ blocked: true, reason: 'blocked by guard' });
    },
    60_000,
  );

  it('refuses matchers that cannot be joined into one adapter matcher, saying why', async () => {
    const dir = tempDir('hw-unev-install-');
    const file = writeConfig(dir, 'settings.json', {
      hooks: {
        PreToolUse: [
          { matcher: '(?<t>Bash)', hooks: [{ type: 'command', command: 'true' }] },
          { matcher: '(?<t>Edit)', hooks: [{ type: 'command', command: 'true' }] },
        ],
      },
    });
    const r = await runCli(['claude-code', 'install', file, '--write']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(
      /PreToolUse: the groups' matchers cannot be joined into one adapter matcher .*Duplicate capture group name/,
    );
  });
});
