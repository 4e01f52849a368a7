import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SourceSpec } from '../../src/config/read-source.js';
import { createExecutor, HookwardenError } from '../../src/index.js';
import { commandOf, jsOf, tempDir, writeConfig, writeFile } from '../helpers/fixture.js';
import { loadConfig } from '../helpers/load-config.js';

const file = (path: string, scope: SourceSpec['scope'] = 'project'): SourceSpec => ({
  kind: 'file',
  path,
  scope,
});
const load = (config: SourceSpec[], policy: SourceSpec[] = []) => loadConfig({ config, policy });
const messages = (r: Awaited<ReturnType<typeof load>>) =>
  r.diagnostics.map((d) => `${d.severity} ${d.path}: ${d.message}`);

describe('config shapes', () => {
  it('loads hookwarden’s form, Claude Code’s nested form and FreeCode’s flat form to the same hook', async () => {
    const dir = tempDir();
    const ours = writeConfig(dir, 'ours.json', {
      hooks: {
        BeforeTool: [
          { matcher: 'Bash', hooks: [{ type: 'command', name: 'g', command: './g.sh', timeoutMs: 5000 }] },
        ],
      },
    });
    const claude = writeConfig(dir, 'claude.json', {
      permissions: { allow: [] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './g.sh', timeout: 5 }] }],
      },
    });
    const flat = writeConfig(dir, 'flat.json', {
      hooks: { PreToolUse: [{ name: 'g', matcher: 'Bash', command: './g.sh', timeout: 5 }] },
    });
    // The dialects differ in one thing here: a hookwarden file's relative program is the config
    // file's (like a JS source); Claude Code's and FreeCode's run from the project root.
    // Claude Code files run their inline commands with bash, the others with /bin/sh.
    for (const [path, command, shell] of [
      [ours, `'${join(dir, 'g.sh')}'`, undefined],
      [claude, './g.sh', 'bash'],
      [flat, './g.sh', undefined],
    ] as const) {
      const r = await load([file(path)]);
      expect(r.hooks, path).toHaveLength(1);
      const h = r.hooks[0]!;
      expect([h.event, h.type, h.deadlineMs, h.matcher?.source, commandOf(h)?.program]).toEqual([
        'BeforeTool',
        'command',
        5000,
        'Bash',
        { kind: 'shell', command, ...(shell === undefined ? {} : { shell }) },
      ]);
    }
    const r = await load([file(claude)]); // Claude Code's own settings (permissions…) pass in silence
    expect(messages(r)).toEqual([]);
  });

  it('turns Claude Code’s exec form (command + args) into argv without a shell', async () => {
    const dir = tempDir();
    const p = writeConfig(dir, 'c.json', {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'python3', args: ['a.py', '--x'] }] }] },
    });
    const r = await load([file(p)]);
    expect(commandOf(r.hooks[0]!)!.program).toEqual({ kind: 'argv', argv: ['python3', 'a.py', '--x'] });
    expect(r.hooks[0]!.event).toBe('AfterTurn');
  });
});

describe('config problems', () => {
  it('names the JSON path and the value received, skips the entry and loads the rest', async () => {
    const dir = tempDir();
    const p = writeConfig(dir, 'h.json', {
      hooks: {
        BeforeTool: [
          {
            matcher: 'Bash',
            hooks: [
              { command: 'ok.sh' },
              { command: 'bad.sh', timeoutMs: -1 },
              { type: 'command', command: 'x', onError: 'explode' },
            ],
          },
        ],
        Notifcation: [{ hooks: [{ command: 'n.sh' }] }],
        SessionStart: 'nope',
      },
    });
    const r = await load([file(p)]);
    expect(r.hooks.map((h) => commandOf(h)!.program)).toEqual([{ kind: 'shell', command: 'ok.sh' }]);
    expect(messages(r)).toEqual([
      'error hooks.BeforeTool[0].hooks[1].timeoutMs: expected a positive integer, got -1',
      'error hooks.BeforeTool[0].hooks[2].onError: expected "skip" or "deny", got "explode"',
      expect.stringMatching(
        /^warning hooks.Notifcation: unknown event "Notifcation" \(did you mean "Notification"\?\); valid events are SessionStart, BeforeTurn, .*PreToolUse/,
      ),
      'error hooks.SessionStart: expected an array of hook groups, got "nope"',
    ]);
    expect(r.diagnostics.every((d) => d.file === p)).toBe(true);
  });

  it('reports JSON syntax errors with line and column', async () => {
    const dir = tempDir();
    const p = writeConfig(dir, 'broken.json', '{\n  "hooks": {\n    "BeforeTool": [,]\n  }\n}');
    const r = await load([file(p)]);
    expect(r.hooks).toHaveLength(0);
    expect(messages(r)[0]).toMatch(/invalid JSON at line 3, column 20/);
  });

  it('warns when a Claude Code timeout in seconds looks like milliseconds', async () => {
    const dir = tempDir();
    const p = writeConfig(dir, 'h.json', {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: 'x', timeout: 5000 }] }] },
    });
    const r = await load([file(p)]);
    expect(messages(r)[0]).toMatch(/timeout.*SECONDS: 5000 s is 83.3 minutes.*"timeoutMs": 5000/);
    expect(messages(r)[1]).toMatch(/clamped/);
    expect(r.hooks[0]!.deadlineMs).toBe(600_000);
  });

  it('refuses both timeout and timeoutMs, and conflicting program fields', async () => {
    const dir = tempDir();
    const p = writeConfig(dir, 'h.json', {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              { command: 'x', timeout: 1, timeoutMs: 1000 },
              { command: 'x', argv: ['y'] },
              { command: 'x', code: 'y' },
              {},
            ],
          },
        ],
      },
    });
    const r = await load([file(p)]);
    expect(r.hooks).toHaveLength(0);
    expect(messages(r)).toEqual([
      'error hooks.BeforeTool[0].hooks[0].timeout: give either timeout (seconds) or timeoutMs, not both, got 1',
      'error hooks.BeforeTool[0].hooks[1].argv: give either argv or command (with optional args), not both',
      'error hooks.BeforeTool[0].hooks[2].code: "code" belongs to JS hooks, not command hooks, got "y"',
      'error hooks.BeforeTool[0].hooks[3]: a hook needs "command" or "argv" (command hook), "source" or "code" (JS hook), "source" with type "wasm" (wasm hook), or "url" (http hook), got none',
    ]);
  });

  it('warns about secret-looking inheritEnv names and drops them', async () => {
    const dir = tempDir();
    const p = writeConfig(dir, 'h.json', {
      hooks: {
        BeforeTool: [{ hooks: [{ command: 'x', inheritEnv: ['GITHUB_TOKEN', 'EDITOR', 'HOOKWARDEN_X'] }] }],
      },
    });
    // A user's own file: a project's inheritEnv needs the policy's grant besides (grants.test.ts).
    const r = await load([file(p, 'user')]);
    expect(commandOf(r.hooks[0]!)!.inheritEnv).toEqual(['EDITOR']);
    expect(messages(r)).toHaveLength(2);
    expect(messages(r)[0]).toMatch(/inheritEnv\[0\]: "GITHUB_TOKEN" looks like a secret/);
  });

  it('validates limits with their path', async () => {
    const dir = tempDir();
    const p = writeConfig(dir, 'h.json', { limits: { maxHookCalls: 5000 } });
    const r = await load([file(p)]);
    expect(messages(r)).toEqual(['error limits.maxHookCalls: expected at most 4096, got 5000']);
    expect(r.limits.maxHookCalls).toBe(128);
  });

  it('makes a missing config file fatal for createExecutor', async () => {
    await expect(createExecutor({ config: '/nonexistent/hooks.json' })).rejects.toMatchObject({
      name: 'HookwardenError',
      code: 'config_error',
      message: expect.stringContaining('/nonexistent/hooks.json: file not found'),
    });
    await expect(createExecutor({ config: '/nonexistent/hooks.json' })).rejects.toBeInstanceOf(
      HookwardenError,
    );
  });
});

describe('scopes and merging', () => {
  it('lets a later config file replace an earlier one’s hook with the same event and name', async () => {
    const dir = tempDir();
    const a = writeConfig(dir, 'a.json', {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              { name: 'fmt', command: 'a' },
              { name: 'other', command: 'o' },
            ],
          },
        ],
      },
    });
    const b = writeConfig(dir, 'b.json', {
      hooks: { BeforeTool: [{ hooks: [{ name: 'fmt', command: 'b' }] }] },
    });
    const r = await load([file(a), file(b)]);
    expect(r.hooks.map((h) => [h.id, (commandOf(h)!.program as { command: string }).command])).toEqual([
      ['other', 'o'],
      ['fmt', 'b'],
    ]);
  });

  it('lets project replace user whatever the file order, and runs project before user', async () => {
    const dir = tempDir();
    const project = writeConfig(dir, 'p.json', {
      hooks: { BeforeTool: [{ hooks: [{ name: 'fmt', command: 'project' }] }] },
    });
    const user = writeConfig(dir, 'u.json', {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              { name: 'fmt', command: 'user' },
              { name: 'u2', command: 'u2' },
            ],
          },
        ],
      },
    });
    const r = await load([file(project), file(user, 'user')]);
    expect(r.hooks.map((h) => `${h.scope}:${h.id}`)).toEqual(['project:fmt', 'user:u2']);
    expect((commandOf(r.hooks[0]!)!.program as { command: string }).command).toBe('project');
  });

  it('never replaces a policy hook: a clash drops the user hook with a warning', async () => {
    const dir = tempDir();
    const pol = writeConfig(dir, 'pol.json', {
      hooks: { BeforeTool: [{ hooks: [{ name: 'guard', command: 'policy' }] }] },
    });
    const cfg = writeConfig(dir, 'cfg.json', {
      hooks: { BeforeTool: [{ hooks: [{ name: 'guard', command: 'mine' }] }] },
    });
    const r = await load([file(cfg)], [file(pol)]);
    expect(
      r.hooks.map((h) => `${h.scope}:${(commandOf(h)!.program as { command: string }).command}`),
    ).toEqual(['policy:policy']);
    expect(messages(r)).toEqual([
      expect.stringMatching(/hooks.BeforeTool\[0\].hooks\[0\]: hook "guard" clashes with a policy hook/),
    ]);
  });

  it('ignores policyHooks outside policy files, and honours them in policy files', async () => {
    const dir = tempDir();
    const cfg = writeConfig(dir, 'cfg.json', {
      policyHooks: { BeforeTool: [{ hooks: [{ command: 'sneaky' }] }] },
    });
    const r = await load([file(cfg)]);
    expect(r.hooks).toHaveLength(0);
    expect(messages(r)[0]).toMatch(/^warning policyHooks: policyHooks are only honoured in policy files/);
    const pol = writeConfig(dir, 'pol.json', {
      policyHooks: { BeforeTool: [{ hooks: [{ command: 'guard' }] }] },
    });
    const p = await load([], [file(pol)]);
    expect(p.hooks.map((h) => h.scope)).toEqual(['policy']);
    expect(p.policyFailures).toEqual([]);
  });

  it('records a policy failure when a policy file has an invalid or skipped entry', async () => {
    const dir = tempDir();
    const invalid = writeConfig(dir, 'invalid.json', {
      hooks: { BeforeTool: [{ hooks: [{ command: 'x', timeoutMs: 0 }] }] },
    });
    const typo = writeConfig(dir, 'typo.json', { hooks: { BeforeTol: [{ hooks: [{ command: 'x' }] }] } });
    for (const p of [invalid, typo]) {
      const r = await load([], [file(p)]);
      expect(r.policyFailures, p).toHaveLength(1);
      expect(r.fatal).toEqual([]);
    }
  });

  it('makes a file that cannot be read or parsed fatal, whatever its scope (never "(skipped)")', async () => {
    const dir = tempDir();
    const cases: [string, RegExp][] = [
      [join(dir, 'missing.json'), /^file not found$/],
      [dir, /^is a directory, not a config file/],
      [
        writeConfig(dir, 'comma.json', '{ "hooks": { "BeforeTool": [] } ] }'),
        /^invalid JSON at line 1, column/,
      ],
      [writeConfig(dir, 'array.json', '[]'), /^expected a JSON object at the top level, got \[\]/],
    ];
    for (const [p, message] of cases) {
      for (const scope of ['policy', 'project', 'user'] as const) {
        const r = scope === 'policy' ? await load([], [file(p, 'policy')]) : await load([file(p, scope)]);
        expect(
          r.fatal.map((d) => d.message),
          `${scope} ${p}`,
        ).toEqual([expect.stringMatching(message)]);
        expect(r.fatal[0]!.skipped).toBe(false);
      }
    }
    // A trailing comma is JSONC: accepted.
    const comma = writeConfig(
      dir,
      'trailing.json',
      '{ "hooks": { "BeforeTool": [{ "hooks": [{ "command": "x" }] },] }, }',
    );
    expect((await load([file(comma)])).fatal).toEqual([]);
  });

  it('skips a missing optional user config silently', async () => {
    const r = await loadConfig({
      config: [{ kind: 'file', path: '/nonexistent/user.json', scope: 'user', optional: true }],
      policy: [],
    });
    expect([r.fatal, r.diagnostics, r.hooks]).toEqual([[], [], []]);
  });

  it('with strict, makes every skipped entry fatal', async () => {
    const dir = tempDir();
    const p = writeConfig(dir, 'h.json', {
      hooks: { BeforeTool: [{ hooks: [{ command: 'x', onError: 'dny' }] }] },
    });
    const lenient = await loadConfig({ config: [file(p)], policy: [] });
    expect(lenient.fatal).toEqual([]);
    const strict = await loadConfig({ config: [file(p)], policy: [], strict: true });
    expect(strict.fatal.map((d) => d.path)).toEqual(['hooks.BeforeTool[0].hooks[0].onError']);
    await expect(createExecutor({ config: p, strict: true, onWarning: () => {} })).rejects.toThrow(
      /onError: expected "skip" or "deny", got "dny"$/,
    );
  });

  it('suggests the name meant for a misspelt field, group key, event or top-level key', async () => {
    const dir = tempDir();
    const p = writeConfig(dir, 'h.json', {
      hook: {},
      hooks: { BeforeTol: [], BeforeTool: [{ matchr: 'Bash', hooks: [{ comand: 'x', command: 'y' }] }] },
    });
    const r = await load([file(p)]);
    expect(messages(r)).toEqual([
      'warning : ignored top-level keys (not hook configuration): hook (did you mean "hooks"?)',
      expect.stringMatching(
        /^warning hooks\.BeforeTol: unknown event "BeforeTol" \(did you mean "BeforeTool"\?\)/,
      ),
      'warning hooks.BeforeTool[0].matchr: unknown field "matchr" in a hook group ignored (did you mean "matcher"?)',
      'warning hooks.BeforeTool[0].hooks[0].comand: unknown field "comand" ignored (did you mean "command"?)',
    ]);
  });
});

describe('custom events', () => {
  it('can be declared with the four catalogue properties', async () => {
    const dir = tempDir();
    const p = writeConfig(dir, 'h.json', {
      events: { Notification: { mode: 'parallel', canDeny: false, honours: ['additionalContext'] } },
      hooks: { Notification: [{ hooks: [{ command: 'n' }] }] },
    });
    const r = await load([file(p)]);
    expect(r.catalogue.get('Notification')).toMatchObject({
      mode: 'parallel',
      canDeny: false,
      toolScoped: false,
    });
    expect(r.hooks.map((h) => h.event)).toEqual(['Notification']);
  });

  it('cannot redefine built-in events or aliases, but can switch their mode (first setting wins)', async () => {
    const dir = tempDir();
    const p = writeConfig(dir, 'h.json', { events: { PreToolUse: { mode: 'parallel', canDeny: false } } });
    const r = await load([file(p)]);
    expect(messages(r)).toEqual([
      'error events.PreToolUse: "PreToolUse" is a built-in event or alias: only its mode can be set, as {"mode": "serial"|"parallel"}, got {"mode":"parallel","canDeny":false}',
    ]);
    const policy = writeConfig(dir, 'p.json', { events: { BeforeTool: { mode: 'parallel' } } });
    const project = writeConfig(dir, 'q.json', { events: { PreToolUse: { mode: 'serial' } } });
    const m = await load([file(project)], [file(policy, 'policy')]);
    expect(m.catalogue.get('BeforeTool')).toMatchObject({
      mode: 'parallel',
      canDeny: true,
      toolScoped: true,
    });
    expect(messages(m)).toEqual([
      'warning events.PreToolUse: the mode of BeforeTool is already set to "parallel"; this one is ignored',
    ]);
  });
});

describe('JS hook sources', () => {
  it('are read relative to the config file, and refused when they leave its directory', async () => {
    const dir = tempDir();
    const outside = tempDir();
    writeFile(join(dir, 'hooks/ok.js'), 'export default () => ({})');
    writeFile(join(outside, 'evil.js'), 'export default () => ({})');
    symlinkSync(join(outside, 'evil.js'), join(dir, 'hooks/link.js'));
    const p = writeConfig(dir, 'h.json', {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              { type: 'js', source: 'hooks/ok.js' },
              { type: 'js', source: '../x.js' },
              { type: 'js', source: join(outside, 'evil.js') },
              { type: 'js', source: 'hooks/link.js' },
            ],
          },
        ],
      },
    });
    const r = await load([file(p)]);
    expect(r.hooks.map((h) => jsOf(h)!.code)).toEqual(['export default () => ({})']);
    expect(messages(r)).toEqual([
      expect.stringMatching(/hooks\[1\].source: source paths may not contain "\.\."/),
      expect.stringMatching(/hooks\[2\].source: absolute source paths are refused/),
      expect.stringMatching(/hooks\[3\].source: source resolves outside the config directory/),
    ]);
  });
});

describe('trust boundary at load', () => {
  it('reports a key written twice: a warning in a project file, a policy failure in a policy file', async () => {
    const dir = tempDir();
    const text =
      '{\n  "hooks": { "SessionStart": [{ "hooks": [{ "command": "true" }] }] },\n  "hooks": {}\n}\n';
    const project = await load([file(writeConfig(dir, 'p.json', text))]);
    expect(messages(project)).toEqual([
      'warning hooks: key written twice (line 2, column 3 and line 3, column 3); the second one is used',
    ]);
    expect(project.policyFailures).toEqual([]);
    const policy = await load([], [file(writeConfig(dir, 'policy.json', text), 'policy')]);
    expect(messages(policy)).toEqual([
      'error hooks: key written twice (line 2, column 3 and line 3, column 3); a policy file must be unambiguous, so it fails closed',
    ]);
    expect(policy.policyFailures).toHaveLength(1);
  });

  it('makes policy hooks fail closed by default, and reports a policy hook that writes "skip"', async () => {
    const dir = tempDir();
    const hooks = {
      SessionStart: [
        {
          hooks: [
            { name: 'a', command: 'true' },
            { name: 'b', command: 'true', onError: 'skip' },
          ],
        },
      ],
    };
    const policy = await load([], [file(writeConfig(dir, 'policy.json', { hooks }), 'policy')]);
    expect(policy.hooks.map((h) => [h.id, h.onError])).toEqual([
      ['a', 'deny'],
      ['b', 'skip'],
    ]);
    expect(messages(policy)).toEqual([
      'warning hooks.SessionStart[0].hooks[1].onError: this policy hook fails open: if it crashes, times out or answers garbage, the call proceeds (policy hooks default to "deny")',
    ]);
    expect(policy.policyFailures).toEqual([]);
    const project = await load([file(writeConfig(dir, 'project.json', { hooks }))]);
    expect(project.hooks.map((h) => h.onError)).toEqual(['skip', 'skip']);
  });

  it("applies the user file's isolation floor to project hooks (trust order: user > project)", async () => {
    const dir = tempDir();
    const user = writeConfig(dir, 'user.json', {
      limits: { minIsolation: 'namespace' },
      hooks: { SessionStart: [{ hooks: [{ name: 'u', command: 'true' }] }] },
    });
    const project = writeConfig(dir, 'project.json', {
      limits: { minIsolation: 'process' },
      hooks: { SessionStart: [{ hooks: [{ name: 'p', command: 'true' }] }] },
    });
    const r = await load([file(user, 'user'), file(project)]);
    expect(r.hooks.map((h) => [h.id, commandOf(h)?.isolation])).toEqual([
      ['p', 'namespace'],
      ['u', 'namespace'],
    ]);
  });
});
