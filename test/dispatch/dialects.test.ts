// Dialects end to end (docs/claude-code.md#dialects): the same kind of hook in a hookwarden, Claude Code or
// FreeCode file means what it meant in that system. Real command hooks, real executors.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namespaceSupport } from '../../sandbox/command/namespace-profile.js';
import { hooksOn, input, tempDir, withExecutor, writeConfig, writeFile } from '../helpers/fixture.js';
import { loadConfig } from '../helpers/load-config.js';

const bash = (toolInput: Record<string, unknown> = { command: 'ls' }) =>
  input({ toolName: 'Bash', toolInput });

/** A config file in `dialect` (declared) with one hook under `event`. */
function file(
  dialect: string,
  event: string,
  hook: Record<string, unknown>,
  group: Record<string, unknown> = {},
) {
  const dir = tempDir();
  return writeConfig(dir, 'hooks.json', { dialect, ...hooksOn(event, [hook], group) });
}

const sh = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });

async function dialectsOf(config: unknown) {
  const dir = tempDir();
  const path = writeConfig(dir, 'settings.json', config);
  const r = await loadConfig({ config: [{ kind: 'file', path, scope: 'project' }], policy: [] });
  return r.hooks.map((h) => h.dialect);
}

describe('dialect detection', () => {
  it("reads a settings file whose only events are Claude Code's own (Notification) as claude-code", async () => {
    expect(await dialectsOf({ hooks: { Notification: [{ hooks: [sh('true')] }] } })).toEqual(['claude-code']);
    expect(
      await dialectsOf({
        hooks: { Setup: [{ hooks: [sh('true')] }], PreToolUse: [{ hooks: [sh('true')] }] },
      }),
    ).toEqual(['claude-code', 'claude-code']);
  });

  it("reads FreeCode's flat form as freecode, hookwarden's names as hookwarden, and a declared dialect as declared", async () => {
    expect(
      await dialectsOf({ hooks: { PreToolUse: [{ name: 'g', matcher: 'bash', command: 'true' }] } }),
    ).toEqual(['freecode']);
    expect(await dialectsOf({ hooks: { BeforeTool: [{ hooks: [sh('true')] }] } })).toEqual(['hookwarden']);
    expect(
      await dialectsOf({ dialect: 'freecode', hooks: { PreToolUse: [{ hooks: [sh('true')] }] } }),
    ).toEqual(['freecode']);
  });

  it('JS hooks speak hookwarden whatever the file says', async () => {
    expect(
      await dialectsOf({
        dialect: 'claude-code',
        hooks: { PreToolUse: [{ hooks: [{ type: 'js', code: 'export default () => {}' }] }] },
      }),
    ).toEqual(['hookwarden']);
  });
});

describe('default timeouts by dialect', () => {
  it('Claude Code: 600 s, 30 s on UserPromptSubmit; FreeCode: 5 minutes; hookwarden: 60 s', async () => {
    const dir = tempDir();
    const cases: [string, string, number][] = [
      ['claude-code', 'PreToolUse', 600_000],
      ['claude-code', 'UserPromptSubmit', 30_000],
      ['freecode', 'PreToolUse', 300_000],
      ['hookwarden', 'BeforeTool', 60_000],
    ];
    for (const [dialect, event, ms] of cases) {
      const path = writeConfig(dir, `${dialect}-${event}.json`, { dialect, ...hooksOn(event, [sh('true')]) });
      const r = await loadConfig({ config: [{ kind: 'file', path, scope: 'project' }], policy: [] });
      expect(
        r.hooks.map((h) => h.deadlineMs),
        `${dialect} ${event}`,
      ).toEqual([ms]);
    }
  });
});

describe('the claude-code dialect', () => {
  it('plain-text stdout becomes context where Claude Code adds it (SessionStart, UserPromptSubmit)', async () => {
    const config = writeConfig(tempDir(), 'settings.json', {
      hooks: {
        SessionStart: [{ hooks: [sh('echo "branch: main"')] }],
        UserPromptSubmit: [{ hooks: [sh('printf "line one\\nline two"')] }],
      },
    });
    await withExecutor({ config }, async (hw) => {
      const start = await hw.dispatch('SessionStart', input({ source: 'startup' }));
      expect(start.additionalContext).toBe('branch: main');
      expect(start.hooks[0]?.error).toBeUndefined();
      const turn = await hw.dispatch('UserPromptSubmit', input({ prompt: 'hi' }));
      expect(turn.additionalContext).toBe('line one\nline two');
    });
  });

  it('plain-text stdout elsewhere is not an error and not context; broken JSON is an error', async () => {
    const dir = tempDir();
    const text = writeConfig(dir, 'a.json', hooksOn('PreToolUse', [sh('echo checking')]));
    await withExecutor({ config: text }, async (hw) => {
      const r = await hw.dispatch('PreToolUse', bash());
      expect(r.decision).toBe('passthrough');
      expect(r.additionalContext).toBeUndefined();
      expect(r.hooks[0]).toMatchObject({ outcome: 'proceed' });
      expect(r.hooks[0]?.error).toBeUndefined();
    });
    const broken = writeConfig(dir, 'b.json', hooksOn('PreToolUse', [sh(`echo '{"decision": "block"'`)]));
    await withExecutor({ config: broken }, async (hw) => {
      const r = await hw.dispatch('PreToolUse', bash());
      expect(r.hooks[0]?.error?.code).toBe('invalid_output');
    });
  });

  it('a hookwarden file keeps plain text an invalid_output error', async () => {
    const config = file('hookwarden', 'SessionStart', sh('echo hello'));
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('SessionStart', input());
      expect(r.additionalContext).toBeUndefined();
      expect(r.hooks[0]?.error?.code).toBe('invalid_output');
    });
  });

  it('process-mode hooks get the host PATH and HOME; namespace ones and hookwarden ones a scratch HOME', async () => {
    const hostHome = process.env.HOME;
    if (hostHome === undefined) throw new Error('the test needs HOME');
    const print = sh(`printf '{"additionalContext": "%s|%s"}' "$HOME" "$PATH"`);
    await withExecutor({ config: file('claude-code', 'SessionStart', print) }, async (hw) => {
      const [home, path] = (await hw.dispatch('SessionStart', input())).additionalContext!.split('|');
      expect(home).toBe(hostHome);
      expect(path).toBe(process.env.PATH);
    });
    await withExecutor({ config: file('hookwarden', 'SessionStart', print) }, async (hw) => {
      const [home, path] = (await hw.dispatch('SessionStart', input())).additionalContext!.split('|');
      expect(home).not.toBe(hostHome);
      expect(path).toBe('/usr/local/bin:/usr/bin:/bin');
    });
  });

  it.runIf(namespaceSupport().ok || process.env.HOOKWARDEN_REQUIRE_NAMESPACE === '1')(
    'a policy narrows it: minIsolation namespace gives a scratch HOME and the fixed PATH',
    async () => {
      const dir = tempDir();
      const policy = writeConfig(dir, 'policy.json', { limits: { minIsolation: 'namespace' } });
      const print = sh(`printf '{"additionalContext": "%s|%s"}' "$HOME" "$PATH"`);
      await withExecutor({ config: file('claude-code', 'SessionStart', print), policy }, async (hw) => {
        const r = await hw.dispatch('SessionStart', input());
        const [home, path] = r.additionalContext!.split('|');
        expect(home).not.toBe(process.env.HOME);
        expect(path).toBe('/usr/local/bin:/usr/bin:/bin');
      });
    },
  );

  it('onFailure "block" makes a crash deny; it has no effect on Stop; with onError it is refused', async () => {
    await withExecutor(
      { config: file('claude-code', 'PreToolUse', sh('exit 1', { onFailure: 'block' })) },
      async (hw) => {
        expect((await hw.dispatch('PreToolUse', bash())).decision).toBe('deny');
      },
    );
    await withExecutor(
      { config: file('claude-code', 'PreToolUse', sh('exit 1', { onFailure: 'continue' })) },
      async (hw) => {
        expect((await hw.dispatch('PreToolUse', bash())).decision).toBe('passthrough');
      },
    );
    await withExecutor(
      { config: file('claude-code', 'Stop', sh('exit 1', { onFailure: 'block' })) },
      async (hw) => {
        expect((await hw.dispatch('Stop', input())).decision).toBe('passthrough');
      },
    );
    await withExecutor(
      { config: file('claude-code', 'PreToolUse', sh('exit 1', { onFailure: 'block', onError: 'skip' })) },
      async (hw, warnings) => {
        expect(warnings.join('\n')).toMatch(/either onError or onFailure/);
        expect((await hw.dispatch('PreToolUse', bash())).hooks).toEqual([]);
      },
    );
  });

  it('PreCompact can block in Claude Code files, BeforeCompact cannot in hookwarden ones', async () => {
    const block = sh('echo "keep the history" >&2; exit 2');
    await withExecutor({ config: file('claude-code', 'PreCompact', block) }, async (hw) => {
      const r = await hw.dispatch('PreCompact', input({ trigger: 'auto' }));
      expect(r).toMatchObject({ decision: 'deny', reason: 'keep the history' });
    });
    await withExecutor({ config: file('hookwarden', 'BeforeCompact', block) }, async (hw) => {
      const r = await hw.dispatch('BeforeCompact', input({ compaction: { trigger: 'auto' } }));
      expect(r.decision).toBe('passthrough');
      expect(r.hooks[0]?.ignoredFields).toEqual(['decision']);
    });
  });

  it('warns about variables Claude Code never sets', async () => {
    await withExecutor(
      { config: file('claude-code', 'PostToolUse', sh('prettier --write "$CLAUDE_TOOL_INPUT_FILE_PATH"')) },
      async (_hw, warnings) => {
        expect(warnings.join('\n')).toMatch(/\$CLAUDE_TOOL_INPUT_FILE_PATH is not set by Claude Code.*stdin/);
      },
    );
  });

  it('hands hooks the snake_case names of a camelCase input', async () => {
    const config = file(
      'claude-code',
      'PreToolUse',
      sh(
        `jq -c '{additionalContext: ([.transcript_path, .tool_input.command, .hook_event_name, .permission_mode] | join(","))}'`,
      ),
    );
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('PreToolUse', bash({ command: 'ls' }));
      expect(r.additionalContext).toBe(',ls,PreToolUse,');
      const full = await hw.dispatch(
        'PreToolUse',
        input({
          toolName: 'Bash',
          toolInput: { command: 'pwd' },
          transcriptPath: '/t.jsonl',
          permissionMode: 'plan',
        }),
      );
      expect(full.additionalContext).toBe('/t.jsonl,pwd,PreToolUse,plan');
    });
  });
});

describe('the freecode dialect', () => {
  const flat = (hook: Record<string, unknown>, event = 'PreToolUse') => {
    const dir = tempDir();
    return writeConfig(dir, 'settings.json', { hooks: { [event]: [{ name: 'guard', ...hook }] } });
  };

  it('a crash blocks the tool (fail closed): non-zero exit, a missing program', async () => {
    for (const command of ['exit 1', 'no-such-program-hw --check']) {
      await withExecutor({ config: flat({ command }) }, async (hw) => {
        const r = await hw.dispatch('PreToolUse', bash());
        expect(r.decision, command).toBe('deny');
        expect(r.reason).toMatch(/hook failed/);
      });
    }
  });

  it('a timeout fails open', async () => {
    await withExecutor({ config: flat({ command: 'sleep 30', timeout: 0.3 }) }, async (hw) => {
      const r = await hw.dispatch('PreToolUse', bash());
      expect(r.decision).toBe('passthrough');
      expect(r.hooks[0]?.error?.code).toBe('timeout');
    });
  });

  it('$CLAUDE_TOOL_INPUT holds the tool input as JSON', async () => {
    const command = `case "$CLAUDE_TOOL_INPUT" in *'"path":"/etc/passwd"'*) echo '{"block": true, "reason": "system file"}';; esac`;
    await withExecutor({ config: flat({ command }) }, async (hw) => {
      expect(await hw.dispatch('PreToolUse', bash({ path: '/etc/passwd' }))).toMatchObject({
        decision: 'deny',
        reason: 'system file',
      });
      expect((await hw.dispatch('PreToolUse', bash({ path: 'src/a.ts' }))).decision).toBe('passthrough');
    });
  });

  it('a tool input too large for the environment blocks rather than run the hook blind', async () => {
    await withExecutor({ config: flat({ command: 'true' }) }, async (hw) => {
      const r = await hw.dispatch('PreToolUse', bash({ content: 'x'.repeat(200 * 1024) }));
      expect(r.decision).toBe('deny');
      expect(r.reason).toMatch(/CLAUDE_TOOL_INPUT/);
    });
  });

  it('{block, modifiedInput, context}: modifiedInput is a patch over the tool input', async () => {
    const command = `echo '{"block": false, "modifiedInput": {"path": "src/safe.ts"}, "context": "rewrote path"}'`;
    await withExecutor({ config: flat({ command }) }, async (hw) => {
      const r = await hw.dispatch('PreToolUse', bash({ path: '/etc/passwd', content: 'x' }));
      expect(r.mutatedToolInput).toEqual({ path: 'src/safe.ts', content: 'x' });
      expect(r.additionalContext).toBe('rewrote path');
    });
  });

  it("a JS hook's modifiedInput patches the input it saw", async () => {
    const code = `export default () => ({ modifiedInput: { path: 'src/safe.ts' } })`;
    const config = { hooks: { BeforeTool: [{ type: 'js', code }] } };
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', bash({ path: '/etc/passwd', content: 'x' }));
      expect(r.mutatedToolInput).toEqual({ path: 'src/safe.ts', content: 'x' });
    });
  });

  it('plain-text stdout is ignored, not an error', async () => {
    await withExecutor({ config: flat({ command: 'echo formatted 3 files' }) }, async (hw) => {
      const r = await hw.dispatch('PreToolUse', bash());
      expect(r.hooks[0]).toMatchObject({ outcome: 'proceed' });
      expect(r.hooks[0]?.error).toBeUndefined();
    });
  });

  it('PreCompact can block, and TurnEnd is Stop', async () => {
    await withExecutor({ config: flat({ command: 'exit 2' }, 'PreCompact') }, async (hw) => {
      expect((await hw.dispatch('PreCompact', input({ trigger: 'auto' }))).decision).toBe('deny');
    });
    await withExecutor(
      { config: flat({ command: `echo '{"block": true, "reason": "tests fail"}'` }, 'TurnEnd') },
      async (hw) => {
        expect((await hw.dispatch('AfterTurn', input())).continueWork).toEqual({ reason: 'tests fail' });
      },
    );
  });
});

describe('CLAUDE_PLUGIN_ROOT', () => {
  it("is the plugin's root for a plugin laid out as plug/.claude-plugin/plugin.json + plug/hooks/hooks.json", async () => {
    const plug = join(tempDir(), 'plug');
    writeFile(
      join(plug, '.claude-plugin', 'plugin.json'),
      JSON.stringify({ name: 'plug', version: '1.0.0' }),
    );
    writeFile(
      join(plug, 'scripts', 'guard.sh'),
      '#!/bin/sh\necho "blocked by the plugin" >&2\nexit 2\n',
      0o755,
    );
    const config = writeConfig(join(plug, 'hooks'), 'hooks.json', {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's placeholder, expanded by the hook's shell
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [sh('"${CLAUDE_PLUGIN_ROOT}/scripts/guard.sh"')] }] },
    });
    await withExecutor({ config }, async (hw) => {
      expect(await hw.dispatch('PreToolUse', bash())).toMatchObject({
        decision: 'deny',
        reason: 'blocked by the plugin',
      });
    });
  });

  it("is the file's own directory outside a plugin", async () => {
    const dir = tempDir();
    const config = writeConfig(
      dir,
      'settings.json',
      hooksOn('SessionStart', [sh(`printf '{"additionalContext": "%s"}' "$CLAUDE_PLUGIN_ROOT"`)]),
    );
    await withExecutor({ config }, async (hw) => {
      expect((await hw.dispatch('SessionStart', input())).additionalContext).toBe(dir);
    });
  });
});

describe('CLAUDE_ENV_FILE', () => {
  it("SessionStart hooks' export lines come back as sessionEnv, merged in order with JSON answers", async () => {
    const dir = tempDir();
    const config = writeConfig(dir, 'settings.json', {
      hooks: {
        SessionStart: [
          {
            hooks: [
              sh(
                `echo 'export NODE_ENV=production' >> "$CLAUDE_ENV_FILE"; echo "export LD_PRELOAD=/x.so" >> "$CLAUDE_ENV_FILE"`,
              ),
              sh(
                `echo 'export REGION="eu west"' >> "$CLAUDE_ENV_FILE"; echo '{"sessionEnv": {"REGION": "us"}}'`,
              ),
            ],
          },
        ],
        PreToolUse: [{ hooks: [sh(`printf '{"additionalContext": "[%s]"}' "$CLAUDE_ENV_FILE"`)] }],
      },
    });
    // The user's own settings: its hooks set what they like but the loader's variables (a
    // project's go by the allow-list: test/dispatch/session-env-allow-list.test.ts).
    await withExecutor({ config: [{ path: config, scope: 'user' }] }, async (hw) => {
      const r = await hw.dispatch('SessionStart', input({ source: 'startup' }));
      expect(r.sessionEnv).toEqual({ NODE_ENV: 'production', REGION: 'us' });
      // The bash Claude Code's env file gets: each hook's lines as written, its JSON answer after them.
      expect(r.sessionEnvScript).toBe(
        'export NODE_ENV=production\nexport REGION="eu west"\nexport REGION=us',
      );
      expect(r.hooks[0]?.ignoredFields).toEqual(['CLAUDE_ENV_FILE:2']);
      expect(r.hooks[0]?.warnings).toEqual([
        expect.stringMatching(
          /^CLAUDE_ENV_FILE line 2 \(LD_PRELOAD\): "LD_PRELOAD" is read by the dynamic loader/,
        ),
      ]);
      // Other events' hooks get no env file.
      expect((await hw.dispatch('PreToolUse', bash())).additionalContext).toBe('[]');
    });
  });

  it('is not read through a symlink (a hook cannot make the host read a file for it)', async () => {
    const dir = tempDir();
    const secret = writeFile(join(dir, 'secret.env'), 'export TOKEN=do-not-read\n');
    const config = writeConfig(
      dir,
      'settings.json',
      hooksOn('SessionStart', [sh(`ln -s '${secret}' "$CLAUDE_ENV_FILE"`)]),
    );
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('SessionStart', input());
      expect(r.sessionEnv).toBeUndefined();
      expect(r.hooks[0]?.error).toBeUndefined();
    });
  });
});
