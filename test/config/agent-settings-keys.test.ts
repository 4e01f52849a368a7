// The agents' own settings beside their hooks (issue 39): a Claude Code settings.json holds `model`,
// `permissions`, `env`, `statusLine`…, a Gemini CLI settings.json `general`, `ui`, `mcpServers`…;
// those are the agent's, not hook configuration hookwarden ignored, and pass in silence. A key
// neither hookwarden's nor the agent's is still named, and a typo of hookwarden's with its fix.
import { describe, expect, it } from 'vitest';
import type { SourceSpec } from '../../src/config/read-source.js';
import { tempDir, writeConfig } from '../helpers/fixture.js';
import { loadConfig } from '../helpers/load-config.js';

const load = async (dir: string, name: string, value: object) => {
  const path = writeConfig(dir, name, value);
  const r = await loadConfig({
    config: [{ kind: 'file', path, scope: 'project' } satisfies SourceSpec],
    policy: [],
  });
  return r.diagnostics.map((d) => `${d.severity} ${d.path}: ${d.message}`);
};

const claude = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] };
const gemini = {
  BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: 'true' }] }],
};

describe('an agent’s own settings keys', () => {
  it.each([
    ['model', 'opus'],
    ['permissions', { allow: ['Bash(ls:*)'], deny: ['Read(.env)'] }],
    ['env', { FOO: '1' }],
    ['statusLine', { type: 'command', command: 'echo hi' }],
    ['enabledPlugins', { 'x@y': true }],
    ['outputStyle', 'Explanatory'],
    ['sandbox', { enabled: true }],
  ])('Claude Code’s %s passes in silence', async (key, value) => {
    expect(await load(tempDir(), '.claude/settings.json', { [key]: value, hooks: claude })).toEqual([]);
  });

  it.each([
    ['general', { vimMode: true }],
    ['ui', { theme: 'GitHub' }],
    ['mcpServers', { gh: { command: 'gh-mcp' } }],
    ['security', { auth: { selectedType: 'oauth-personal' } }],
    ['hooksConfig', { enabled: true }],
  ])('Gemini CLI’s %s passes in silence', async (key, value) => {
    expect(await load(tempDir(), '.gemini/settings.json', { [key]: value, hooks: gemini })).toEqual([]);
  });

  it('a plugin manifest’s keys pass too (Claude Code’s .claude-plugin/plugin.json)', async () => {
    const manifest = {
      name: 'guard',
      version: '1.0.0',
      author: { name: 'x' },
      commands: './commands',
      hooks: claude,
    };
    expect(
      await load(tempDir(), '.claude-plugin/plugin.json', { dialect: 'claude-code', ...manifest }),
    ).toEqual([]);
  });

  it('a key that is neither hookwarden’s nor the agent’s is named, and a typo of hookwarden’s gets its fix', async () => {
    const cc = await load(tempDir(), '.claude/settings.json', { modle: 'opus', hooks: claude });
    expect(cc).toEqual([
      'warning : ignored top-level keys (not hook configuration, nor a setting of the claude-code version hookwarden read): modle',
    ]);
    const typo = await load(tempDir(), '.gemini/settings.json', { hook: {}, hooks: gemini });
    expect(typo).toEqual([
      expect.stringMatching(/ignored top-level keys .*: hook \(did you mean "hooks"\?\)/),
    ]);
  });
});
