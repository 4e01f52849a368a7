// "Tried as a Claude Code user would, `hookwarden claude-code install` on a settings file gives a
// setup whose guards deny what they denied before" (issue 10). For each corpus config with a guard
// (a PreToolUse or PermissionRequest command hook that denies), the scripts it runs are written as
// fixtures; each input is run through the file as Claude Code would run it (test/helpers/
// claude-code.ts), before and after `install --write`: the adapter, a real subprocess started by
// the installed command line, must block what the original hooks blocked, with the same reason.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ClaudeCodeEnv, runAsClaudeCode } from '../helpers/claude-code.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeFile } from '../helpers/fixture.js';

const CORPUS = '/work/shared/corpus/claude-code';

interface Case {
  readonly input: Record<string, unknown>;
  /** The reason Claude Code shows, when the input is blocked. */
  readonly blocked?: RegExp;
}

interface Fixture {
  readonly corpus: string;
  /** Where the file goes in the project (plugins: under plug/). */
  readonly at: string;
  readonly pluginRoot?: string;
  /** The corpus commands leave ${CLAUDE_PLUGIN_ROOT} unquoted: a project path without spaces. */
  readonly plainPath?: true;
  /** Scripts the hooks run, relative to the project. */
  readonly scripts: Readonly<Record<string, string>>;
  readonly setup?: (project: string) => void;
  readonly cases: (project: string) => readonly Case[];
}

const pre = (tool: string, toolInput: Record<string, unknown>, event = 'PreToolUse') => ({
  session_id: 'cc-session-1',
  transcript_path: '/tmp/transcript.jsonl',
  cwd: '/tmp',
  permission_mode: 'default',
  hook_event_name: event,
  tool_name: tool,
  tool_input: toolInput,
  ...(event === 'PreToolUse' ? { tool_use_id: 'toolu_01' } : {}),
});

/** A bash guard: reads the input, exits 2 with `reason` when the command matches `pattern`. */
const exit2 = (field: string, pattern: string, reason: string) =>
  `#!/bin/bash\nvalue=$(jq -r '.tool_input.${field} // empty')\nif [[ "$value" == ${pattern} ]]; then echo "${reason}" >&2; exit 2; fi\nexit 0\n`;
/** A bash guard answering with Claude Code's JSON deny. */
const jsonDeny = (field: string, pattern: string, reason: string) =>
  `#!/bin/bash\nvalue=$(jq -r '.tool_input.${field} // empty')\nif [[ "$value" == ${pattern} ]]; then\n  printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"%s"}}' "${reason}"\nfi\n`;
const PLUGIN_MANIFEST = '{"name": "fixture-plugin", "version": "1.0.0"}\n';

const FIXTURES: readonly Fixture[] = [
  {
    // Inline multi-line shell: no edits on the main branch (exit 2, JSON-looking text on stderr).
    corpus: '18-ChrisWiles__claude-code-showcase__.claude_settings.json',
    at: '.claude/settings.json',
    scripts: {},
    setup: (project) => {
      expect(spawnSync('git', ['init', '-q', '-b', 'main', project]).status).toBe(0);
    },
    cases: (project) => [
      {
        input: pre('Edit', { file_path: join(project, 'src/a.ts'), old_string: 'a', new_string: 'b' }),
        blocked: /Cannot edit files on main branch/,
      },
      {
        input: pre('Write', { file_path: join(project, 'b.ts'), content: 'x' }),
        blocked: /Cannot edit files on main branch/,
      },
      { input: pre('Read', { file_path: join(project, 'src/a.ts') }) },
    ],
  },
  {
    // A plugin: bash guards under ${CLAUDE_PLUGIN_ROOT}/scripts, one exits 2, one prints a JSON deny.
    corpus: '28-robinmin__cc-agents__plugins_rd_hooks_hooks.json',
    at: 'plug/hooks/hooks.json',
    pluginRoot: 'plug',
    plainPath: true,
    scripts: {
      'plug/.claude-plugin/plugin.json': PLUGIN_MANIFEST,
      'plug/scripts/validate-bash.sh': exit2('command', "'rm -rf'*", 'rd: refusing a recursive delete'),
      'plug/scripts/validate-write.sh': jsonDeny('file_path', "'/etc/'*", 'rd: no writes under /etc'),
    },
    cases: () => [
      { input: pre('Bash', { command: 'rm -rf /' }), blocked: /rd: refusing a recursive delete/ },
      {
        input: pre('Write', { file_path: '/etc/passwd', content: 'x' }),
        blocked: /rd: no writes under \/etc/,
      },
      { input: pre('Bash', { command: 'ls -la' }) },
      { input: pre('Edit', { file_path: '/tmp/notes.md', old_string: 'a', new_string: 'b' }) },
    ],
  },
  {
    // A plugin: a guard on every tool (no matcher) and a node script on Task (JSON deny).
    corpus: '16-anthropics__claude-plugins-official__plugins_agent-teams-pipeline_hooks_hooks.json',
    at: 'plug/hooks/hooks.json',
    pluginRoot: 'plug',
    plainPath: true,
    scripts: {
      'plug/.claude-plugin/plugin.json': PLUGIN_MANIFEST,
      'plug/hooks/check-context-preemptive.sh': '#!/bin/bash\nexit 0\n',
      'plug/hooks/block-after-pipeline.sh': exit2(
        'command',
        "'git push --force'*",
        'pipeline done: no force pushes',
      ),
      'plug/hooks/check-team-limit.js': `let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const size = JSON.parse(s).tool_input.team_size ?? 0;
  if (size > 5)
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'team limit is 5, asked for ' + size } }));
});
`,
    },
    cases: () => [
      { input: pre('Bash', { command: 'git push --force origin main' }), blocked: /no force pushes/ },
      { input: pre('Task', { description: 'build', team_size: 9 }), blocked: /team limit is 5, asked for 9/ },
      { input: pre('Task', { description: 'build', team_size: 2 }) },
      { input: pre('Bash', { command: 'git status' }) },
    ],
  },
  {
    // A plugin manifest with inline hooks: `if` filters, a PermissionRequest deny, async hooks kept.
    corpus: '32-ai-sdlc-framework__ai-sdlc__ai-sdlc-plugin_plugin.json',
    at: 'plug/.claude-plugin/plugin.json',
    pluginRoot: 'plug',
    scripts: {
      'plug/hooks/enforce-blocked-actions.sh': `#!/bin/bash
input=$(cat)
cmd=$(jq -r '.tool_input.command // empty' <<<"$input")
file=$(jq -r '.tool_input.file_path // empty' <<<"$input")
if [[ "$cmd" == 'git push origin main'* ]]; then echo "ai-sdlc: push to main is blocked" >&2; exit 2; fi
if [[ "$file" == *.env ]]; then
  printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"ai-sdlc: secrets file"}}'
fi
exit 0
`,
      'plug/hooks/permission-check.sh':
        '#!/bin/bash\nprintf \'{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"ai-sdlc: merges need a review"}}}\'\n',
    },
    cases: (project) => [
      { input: pre('Bash', { command: 'git push origin main' }), blocked: /push to main is blocked/ },
      { input: pre('Write', { file_path: join(project, '.env'), content: 'K=v' }), blocked: /secrets file/ },
      {
        input: pre('Bash', { command: 'gh pr merge 12' }, 'PermissionRequest'),
        blocked: /merges need a review/,
      },
      { input: pre('Bash', { command: 'npm test' }, 'PermissionRequest') },
      { input: pre('Bash', { command: 'git push origin feature' }) },
    ],
  },
];

/** Lays out a fixture in a fresh project whose path needs quoting (a space and a quote) where it can. */
function layOut(f: Fixture): { project: string; file: string; env: ClaudeCodeEnv } {
  const project = join(tempDir(), f.plainPath === true ? 'project' : "it's a project");
  mkdirSync(project, { recursive: true });
  const file = join(project, f.at);
  mkdirSync(dirname(file), { recursive: true });
  copyFileSync(join(CORPUS, f.corpus), file);
  for (const [rel, content] of Object.entries(f.scripts)) writeFile(join(project, rel), content, 0o755);
  f.setup?.(project);
  const env = {
    projectDir: project,
    ...(f.pluginRoot === undefined ? {} : { pluginRoot: join(project, f.pluginRoot) }),
  };
  return { project, file, env };
}

const hooksOf = (file: string) => JSON.parse(readFileSync(file, 'utf8')).hooks as Record<string, unknown>;

describe('hookwarden claude-code install, on the corpus configs with guards', () => {
  it.each(FIXTURES.map((f) => [f.corpus, f] as const))(
    '%s: the installed setup blocks what the original blocked, with the same reason',
    async (_name, f) => {
      const { project, file, env } = layOut(f);
      const cases = f.cases(project);
      const before = await Promise.all(cases.map((c) => runAsClaudeCode(hooksOf(file), c.input, env)));
      // The fixture is right: the original hooks block exactly the cases meant to be blocked.
      cases.forEach((c, i) => {
        expect(before[i]!.blocked, JSON.stringify(c.input)).toBe(c.blocked !== undefined);
        if (c.blocked !== undefined) expect(before[i]!.reason).toMatch(c.blocked);
      });

      const installed = await runCli(['claude-code', 'install', file, '--write'], { cwd: project });
      expect(installed.code, installed.stderr).toBe(0);
      const after = await Promise.all(cases.map((c) => runAsClaudeCode(hooksOf(file), c.input, env)));
      cases.forEach((c, i) => {
        const a = after[i]!;
        const why = `${JSON.stringify(c.input)}: ${a.runs.map((r) => `${r.code} ${r.stderr}`).join(' | ')}`;
        expect({ blocked: a.blocked, reason: a.reason }, why).toEqual({
          blocked: before[i]!.blocked,
          reason: before[i]!.reason,
        });
        // Every command Claude Code ran is the adapter now.
        for (const r of a.runs)
          expect(r.command).toMatch(/bin\/hookwarden'? claude-code --timeout \d+ --config /);
      });
      // The rest of the file is as it was.
      const { hooks: _h, ...rest } = JSON.parse(readFileSync(file, 'utf8'));
      const { hooks: _o, ...original } = JSON.parse(readFileSync(join(CORPUS, f.corpus), 'utf8'));
      expect(rest).toEqual(original);
      expect(readFileSync(`${file}.bak`, 'utf8')).toBe(readFileSync(join(CORPUS, f.corpus), 'utf8'));
    },
    120_000,
  );
});
