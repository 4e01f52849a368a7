// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Claude Code's ${NAME} placeholders, written as in its files
// Claude Code files run their hooks as Claude Code 2.1.333 runs them: an inline command under bash
// (its `shell` field; powershell needs pwsh), exec-form `args` with ${CLAUDE_PROJECT_DIR},
// ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} filled in per element. hookwarden's own files
// keep /bin/sh. Real command hooks, real executors.
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namespaceSupport } from '../../sandbox/command/namespace-profile.js';
import { hooksOn, input, tempDir, withExecutor, writeConfig, writeFile } from '../helpers/fixture.js';

const sh = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });
const bashCall = (command: string) => input({ toolName: 'Bash', toolInput: { command } });

// A guard written the way Claude Code's users write them: bash only.
const BASH_GUARD = `cmd=$(jq -r '.tool_input.command'); set -euo pipefail; words=(a b); [[ "$cmd" == *"rm -rf"* ]] && { echo "no rm -rf (\${#words[@]})" >&2; exit 2; }; exit 0`;

describe('the shell of an inline command', () => {
  it('a Claude Code file runs it with bash: a [[ ]] guard with set -euo pipefail and an array blocks rm -rf and lets ls through', async () => {
    const config = writeConfig(tempDir(), 'settings.json', hooksOn('PreToolUse', [sh(BASH_GUARD)]));
    await withExecutor({ config }, async (hw) => {
      const denied = await hw.dispatch('PreToolUse', bashCall('rm -rf /'));
      expect(denied.decision).toBe('deny');
      expect(denied.reason).toContain('no rm -rf (2)');
      const fine = await hw.dispatch('PreToolUse', bashCall('ls'));
      expect(fine.decision).toBe('passthrough');
      expect(fine.hooks[0]?.error).toBeUndefined();
    });
  });

  it('a hookwarden file keeps /bin/sh, and shell: "bash" there asks for bash', async () => {
    const probe = `printf '{"additionalContext": "%s"}' "\${BASH_VERSION:-none}"`;
    const dir = tempDir();
    const plain = writeConfig(dir, 'a.json', {
      dialect: 'hookwarden',
      ...hooksOn('SessionStart', [sh(probe)]),
    });
    await withExecutor({ config: plain }, async (hw) => {
      const r = await hw.dispatch('SessionStart', input());
      // /bin/sh is dash on Debian (bash in POSIX mode elsewhere).
      if (realpathSync('/bin/sh').endsWith('dash')) expect(r.additionalContext).toBe('none');
    });
    const asked = writeConfig(dir, 'b.json', {
      dialect: 'hookwarden',
      ...hooksOn('SessionStart', [sh(probe, { shell: 'bash' })]),
    });
    await withExecutor({ config: asked }, async (hw) => {
      expect((await hw.dispatch('SessionStart', input())).additionalContext).toMatch(/^\d/);
    });
    const cc = writeConfig(dir, 'settings.json', hooksOn('SessionStart', [sh(probe)]));
    await withExecutor({ config: cc }, async (hw) => {
      expect((await hw.dispatch('SessionStart', input())).additionalContext).toMatch(/^\d/);
    });
  });

  it.runIf(namespaceSupport().ok)(
    'namespace-mode hooks of a Claude Code file get bash too (a policy floor raises them)',
    async () => {
      const dir = tempDir();
      const config = writeConfig(dir, 'settings.json', hooksOn('PreToolUse', [sh(BASH_GUARD)]));
      const policy = writeConfig(dir, 'policy.json', { limits: { minIsolation: 'namespace' } });
      await withExecutor({ config, policy }, async (hw) => {
        const r = await hw.dispatch('PreToolUse', bashCall('rm -rf /'));
        expect(r.decision).toBe('deny');
        expect(r.reason).toContain('no rm -rf (2)');
      });
    },
  );

  it('shell: "powershell" without pwsh on PATH fails clearly (spawn_failed naming PowerShell), and onFailure block denies', async () => {
    const saved = process.env.PATH;
    const config = writeConfig(
      tempDir(),
      'settings.json',
      hooksOn('PreToolUse', [sh('Write-Output hi', { shell: 'powershell', onFailure: 'block' })]),
    );
    const empty = tempDir();
    process.env.PATH = empty;
    try {
      await withExecutor({ config }, async (hw) => {
        const r = await hw.dispatch('PreToolUse', bashCall('ls'));
        expect(r.hooks[0]?.error?.code).toBe('spawn_failed');
        expect(r.hooks[0]?.error?.message).toContain('no PowerShell executable (pwsh or powershell)');
        expect(r.decision).toBe('deny');
      });
    } finally {
      process.env.PATH = saved;
    }
  });

  it('shell: "powershell" runs pwsh from PATH with -Command, keeping an exit 2 a block', async () => {
    const bin = tempDir();
    // A stand-in pwsh: reports its arguments, and blocks like a PowerShell `exit 2` would.
    writeFile(join(bin, 'pwsh'), '#!/bin/sh\necho "$@" >&2\nexit 2\n', 0o755);
    const saved = process.env.PATH;
    process.env.PATH = `${bin}:${saved}`;
    try {
      const config = writeConfig(
        tempDir(),
        'settings.json',
        hooksOn('PreToolUse', [sh('Write-Error no; exit 2', { shell: 'powershell' })]),
      );
      await withExecutor({ config }, async (hw) => {
        const r = await hw.dispatch('PreToolUse', bashCall('ls'));
        expect(r.decision).toBe('deny');
        expect(r.reason).toContain('-NoProfile -NonInteractive -Command Write-Error no; exit 2');
        expect(r.reason).toContain('$LASTEXITCODE -eq 2');
      });
    } finally {
      process.env.PATH = saved;
    }
  });
});

describe('exec-form args', () => {
  function plugin() {
    const root = tempDir('hw-plugin-');
    writeFile(join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'guard-kit' }));
    writeFile(
      join(root, 'hooks', 'guard.sh'),
      'echo "root=$1 data=$2 project=$3 env=$CLAUDE_PLUGIN_DATA" >&2\nexit 2\n',
    );
    return root;
  }

  it('substitutes ${CLAUDE_PLUGIN_ROOT}, ${CLAUDE_PLUGIN_DATA} and ${CLAUDE_PROJECT_DIR} in each element and sets CLAUDE_PLUGIN_DATA', async () => {
    const root = plugin();
    const claudeDir = tempDir('hw-claude-config-');
    const project = tempDir('hw-project-');
    const config = writeConfig(
      join(root, 'hooks'),
      'hooks.json',
      hooksOn('PreToolUse', [
        {
          type: 'command',
          command: 'sh',
          args: [
            '${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh',
            '${CLAUDE_PLUGIN_ROOT}',
            '${CLAUDE_PLUGIN_DATA}',
            '${CLAUDE_PROJECT_DIR}',
          ],
        },
      ]),
    );
    const saved = process.env.CLAUDE_CONFIG_DIR;
    process.env.CLAUDE_CONFIG_DIR = claudeDir;
    try {
      await withExecutor({ config, root: project }, async (hw) => {
        const r = await hw.dispatch('PreToolUse', bashCall('ls'));
        const data = join(claudeDir, 'plugins', 'data', 'guard-kit-inline');
        expect(r.decision).toBe('deny');
        expect(r.reason).toBe(`root=${root} data=${data} project=${project} env=${data}`);
      });
    } finally {
      if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = saved;
    }
  });

  it("a marketplace plugin's data folder is named after name@marketplace, as Claude Code names it", async () => {
    const claudeDir = tempDir('hw-claude-config-');
    const root = join(claudeDir, 'plugins', 'cache', 'acme-tools', 'guard-kit', '1.2.0');
    mkdirSync(join(root, 'hooks'), { recursive: true });
    writeFile(join(root, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'guard-kit' }));
    const config = writeConfig(
      join(root, 'hooks'),
      'hooks.json',
      hooksOn('SessionStart', [
        {
          type: 'command',
          command: 'printf',
          args: ['{"additionalContext": "%s"}', '${CLAUDE_PLUGIN_DATA}'],
        },
      ]),
    );
    const saved = process.env.CLAUDE_CONFIG_DIR;
    process.env.CLAUDE_CONFIG_DIR = claudeDir;
    try {
      await withExecutor({ config }, async (hw) => {
        const r = await hw.dispatch('SessionStart', input());
        expect(r.additionalContext).toBe(join(claudeDir, 'plugins', 'data', 'guard-kit-acme-tools'));
      });
    } finally {
      if (saved === undefined) delete process.env.CLAUDE_CONFIG_DIR;
      else process.env.CLAUDE_CONFIG_DIR = saved;
    }
  });

  it('${CLAUDE_PLUGIN_DATA} outside a plugin is not run (as in Claude Code): an error, and onFailure block denies', async () => {
    const config = writeConfig(
      tempDir(),
      'settings.json',
      hooksOn('PreToolUse', [
        { type: 'command', command: 'python3', args: ['${CLAUDE_PLUGIN_DATA}/x.py'], onFailure: 'block' },
      ]),
    );
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('PreToolUse', bashCall('ls'));
      expect(r.hooks[0]?.error?.code).toBe('spawn_failed');
      expect(r.hooks[0]?.error?.message).toContain('${CLAUDE_PLUGIN_DATA}');
      expect(r.decision).toBe('deny');
    });
  });

  it("leaves $NAME (unbraced) and a hookwarden file's argv as written", async () => {
    const dir = tempDir();
    const config = writeConfig(dir, 'a.json', {
      dialect: 'hookwarden',
      ...hooksOn('SessionStart', [
        { type: 'command', argv: ['printf', '{"additionalContext": "%s"}', '${CLAUDE_PROJECT_DIR}'] },
      ]),
    });
    await withExecutor({ config }, async (hw) => {
      expect((await hw.dispatch('SessionStart', input())).additionalContext).toBe('${CLAUDE_PROJECT_DIR}');
    });
  });
});

describe('a first stdout line {"async": true}', () => {
  it('counts as no opinion, as Claude Code backgrounds the hook: a later exit 2 or deny does not block', async () => {
    const config = writeConfig(
      tempDir(),
      'settings.json',
      hooksOn('PreToolUse', [
        sh(
          `echo '{"async": true}'; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'; exit 2`,
        ),
      ]),
    );
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('PreToolUse', bashCall('rm -rf /'));
      expect(r.decision).toBe('passthrough');
      expect(r.hooks[0]?.ignoredFields).toEqual(['async']);
    });
  });
});
