// Loading http hooks: the URL allow-list comes from policy files and options only, the hook's fields
// are checked with their JSON path, and onFailure is Claude Code's spelling of onError.
import { describe, expect, it } from 'vitest';
import { createExecutor, validateConfig } from '../../src/index.js';
import { hooksOn, input, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';
import { json, startHookServer } from '../helpers/hook-server.js';
import { loadConfig, objectSource } from '../helpers/load-config.js';

const obj = objectSource;
const messages = (r: Awaited<ReturnType<typeof loadConfig>>) =>
  r.diagnostics.map((d) => `${d.severity}${d.skipped ? ' (skipped)' : ''} ${d.file} ${d.path}: ${d.message}`);
const httpHook = (url: string, extra: Record<string, unknown> = {}) =>
  hooksOn('PreToolUse', [{ type: 'http', url, ...extra }]);

describe('the http hook URL allow-list', () => {
  it('unset: no http hook runs, and the warning names allowedHttpHookUrls and how to set it', async () => {
    const r = await loadConfig({ config: [obj(httpHook('https://hooks.example.com/pre'))], policy: [] });
    expect(r.hooks).toEqual([]);
    expect(messages(r)).toEqual([
      expect.stringMatching(
        /^warning \(skipped\) <test> hooks\.PreToolUse\[0\]\.hooks\[0\]\.url: http hooks are sent only to URLs an operator allowed, and no "allowedHttpHookUrls" is set.*a policy file \(--policy\).*createExecutor.*--allow-http-url/,
      ),
    ]);
  });

  it('from a policy file admits the URLs of project hooks; a project or user file cannot widen it', async () => {
    const policy = obj({ allowedHttpHookUrls: ['https://hooks.example.com/*'] }, 'policy', '<policy>');
    const project = obj({
      allowedHttpHookUrls: ['https://*'],
      ...httpHook('https://hooks.example.com/pre'),
    });
    const user = obj(
      { allowedHttpHookUrls: ['https://evil.test/*'], ...httpHook('https://evil.test/x') },
      'user',
      '<user>',
    );
    const r = await loadConfig({ config: [project, user], policy: [policy] });
    expect(r.hooks.map((h) => (h.type === 'http' ? h.http.url : h.type))).toEqual([
      'https://hooks.example.com/pre',
    ]);
    const m = messages(r);
    expect(m).toContainEqual(
      expect.stringContaining(
        `warning <test> allowedHttpHookUrls: ignored: only policy can decide what http hooks may reach, so a project file's "allowedHttpHookUrls" has no effect`,
      ),
    );
    expect(m).toContainEqual(expect.stringContaining('warning <user> allowedHttpHookUrls: ignored'));
    expect(m).toContainEqual(
      expect.stringContaining(
        '(skipped) <user> hooks.PreToolUse[0].hooks[0].url: https://evil.test/x matches no "allowedHttpHookUrls" pattern (https://hooks.example.com/*)',
      ),
    );
    expect(r.policyFailures).toEqual([]);
  });

  it('an empty list admits nothing; the option joins the policy files', async () => {
    const empty = obj({ allowedHttpHookUrls: [] }, 'policy');
    const r1 = await loadConfig({ config: [obj(httpHook('https://a.test/x'))], policy: [empty] });
    expect(r1.hooks).toEqual([]);
    expect(messages(r1).join('\n')).toContain('(the list is empty)');
    const r2 = await loadConfig({
      config: [obj(httpHook('https://a.test/x'))],
      policy: [empty],
      hookTypes: { allowedHttpHookUrls: ['https://a.test/*'] },
    });
    expect(r2.hooks).toHaveLength(1);
  });

  it('an invalid pattern in a policy file is a policy failure (deny-capable events deny)', async () => {
    const policy = writeConfig(tempDir(), 'policy.json', { allowedHttpHookUrls: ['ftp://files.test/*'] });
    await withExecutor({ policy }, async (hw, warnings) => {
      expect(warnings.join('\n')).toContain('allowedHttpHookUrls[0]: only http and https URLs are allowed');
      expect((await hw.dispatch('PreToolUse', input({ toolName: 'Bash' }))).decision).toBe('deny');
    });
  });

  it('an invalid pattern in the options is a usage error', async () => {
    await expect(createExecutor({ allowedHttpHookUrls: ['https://user@h.test/*'] })).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringContaining('allowedHttpHookUrls[0]'),
    });
    await expect(createExecutor({ httpHookAllowedEnvVars: ['$TOKEN'] })).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringContaining('httpHookAllowedEnvVars[0]: expected a variable name'),
    });
  });

  it('a policy http hook whose URL is not admitted fails closed', async () => {
    const policy = obj(
      { allowedHttpHookUrls: ['https://a.test/*'], ...httpHook('https://b.test/x') },
      'policy',
      '<policy>',
    );
    const r = await loadConfig({ config: [], policy: [policy] });
    expect(r.hooks).toEqual([]);
    expect(r.policyFailures).toEqual([expect.stringContaining('matches no "allowedHttpHookUrls" pattern')]);
  });

  it("is a runtime tenant's grant, not the top-level list; its own allowedHttpHookUrls count for nothing", async () => {
    const server = await startHookServer((_req, res) =>
      json(res, { decision: 'deny', reason: 'tenant guard' }),
    );
    const policy = { grants: { tenants: { acme: { allowedHttpHookUrls: [`${server.origin}/*`] } } } };
    await withExecutor(
      { allowedHttpHookUrls: [`${server.origin}/*`], policy: [policy] },
      async (hw, warnings) => {
        await hw.setTenant('acme', {
          config: { allowedHttpHookUrls: ['https://*'], ...httpHook(`${server.origin}/t`) },
        });
        await hw.setTenant('evil', { config: httpHook('https://evil.test/x') });
        // The top-level list is the operator's own hooks': a tenant without a grant reaches nothing.
        await hw.setTenant('other', { config: httpHook(`${server.origin}/other`) });
        expect(
          await hw.dispatch('PreToolUse', input({ toolName: 'Bash' }), { tenant: 'acme' }),
        ).toMatchObject({ decision: 'deny', reason: 'tenant guard' });
        expect(
          (await hw.dispatch('PreToolUse', input({ toolName: 'Bash' }), { tenant: 'other' })).decision,
        ).toBe('passthrough');
        const w = warnings.join('\n');
        expect(w).toContain('tenant "acme": ignored: only policy can decide');
        expect(w).toMatch(
          /tenant "evil": http hooks are sent only to URLs an operator allowed.*"grants": \{"tenants": \{"evil"/,
        );
        expect(w).toMatch(/tenant "other": http hooks are sent only to URLs an operator allowed/);
      },
    );
  });
});

describe('http hook fields', () => {
  const allow = { allowedHttpHookUrls: ['https://a.test/*'] };
  const loadOne = (hook: Record<string, unknown>) =>
    loadConfig({ config: [obj(hooksOn('PreToolUse', [hook]))], policy: [], hookTypes: allow });

  it.each([
    [{ type: 'http' }, 'hooks.PreToolUse[0].hooks[0]: an http hook needs "url", got none'],
    [
      { type: 'http', url: 'https://a.test/x', command: 'x' },
      '.command: "command" belongs to command hooks, not http hooks',
    ],
    [
      { type: 'command', command: 'x', url: 'https://a.test/x' },
      '.url: "url" belongs to http hooks, not command hooks',
    ],
    [{ type: 'http', url: 'https://u:p@a.test/x' }, '.url: a URL with user:password@ is refused'],
    [{ type: 'http', url: 'https://a.test/x', headers: { 'Bad Name': 'x' } }, '.headers'],
    [
      { type: 'http', url: 'https://a.test/x', headers: { 'X-A': 'a\r\nX-B: b' } },
      'expected a value without line breaks',
    ],
    // Node refuses such a header at send time: refused at load instead.
    [{ type: 'http', url: 'https://a.test/x', headers: { 'X-A': 'price in \u20ac' } }, 'beyond Latin-1'],
    [{ type: 'http', url: 'https://a.test/x', headers: { 'X-A': 'a\u0001b' } }, 'control characters'],
    [
      { type: 'http', url: 'https://a.test/x', onFailure: 'maybe' },
      '.onFailure: expected "block" or "continue"',
    ],
    [
      { type: 'http', url: 'https://a.test/x', onFailure: 'block', onError: 'skip' },
      'give either onError or onFailure',
    ],
  ])('%j is an error', async (hook, message) => {
    const r = await loadOne(hook);
    expect(r.hooks).toEqual([]);
    expect(
      messages(r)
        .filter((m) => m.startsWith('error'))
        .join('\n'),
    ).toContain(message);
  });

  it('a url alone makes an http hook; command-only fields are ignored with a warning', async () => {
    const r = await loadOne({ url: 'https://a.test/x', env: { A: '1' }, timeout: 2 });
    expect(r.hooks).toHaveLength(1);
    expect(r.hooks[0]).toMatchObject({
      type: 'http',
      deadlineMs: 2000,
      id: expect.stringMatching(/^a\.test-/),
    });
    expect(messages(r)).toEqual([
      expect.stringContaining('.env: "env" applies to command hooks only and is ignored'),
    ]);
  });

  it('default to a 60 s deadline, a 1 MiB body cap (at most 16 MiB), and say when a header names an unlisted variable', async () => {
    const hook = {
      type: 'http',
      url: 'https://a.test/x',
      headers: { 'X-Team': '$TEAM_NAME' },
      maxOutputBytes: 64 * 1024 * 1024,
    };
    // A project file's hook: a larger cap is the policy's to grant (grants.test.ts).
    const project = await loadOne(hook);
    expect(project.hooks[0]!.type === 'http' && project.hooks[0]!.http.maxOutputBytes).toBe(1024 * 1024);
    const r = await loadConfig({
      config: [obj(hooksOn('PreToolUse', [hook]), 'user')],
      policy: [],
      hookTypes: allow,
    });
    const h = r.hooks[0]!;
    expect(h.deadlineMs).toBe(60_000);
    expect(h.type === 'http' && h.http.maxOutputBytes).toBe(16 * 1024 * 1024);
    expect(messages(r).join('\n')).toContain(
      'the header uses $TEAM_NAME, which "allowedEnvVars" does not list: it is sent empty',
    );
  });

  it("take their file's dialect: Claude Code's 600 s default (30 s on UserPromptSubmit), and its answers", async () => {
    const claude = (event: string) =>
      loadConfig({
        config: [
          obj({ dialect: 'claude-code', ...hooksOn(event, [{ type: 'http', url: 'https://a.test/x' }]) }),
        ],
        policy: [],
        hookTypes: allow,
      });
    const pre = (await claude('PreToolUse')).hooks[0]!;
    expect(pre).toMatchObject({ type: 'http', dialect: 'claude-code', deadlineMs: 600_000 });
    expect((await claude('UserPromptSubmit')).hooks[0]).toMatchObject({ deadlineMs: 30_000 });
    // The same hook in a hookwarden file is another hook (its answers are read by other rules).
    const own = (
      await loadConfig({
        config: [
          obj({
            dialect: 'hookwarden',
            ...hooksOn('PreToolUse', [{ type: 'http', url: 'https://a.test/x' }]),
          }),
        ],
        policy: [],
        hookTypes: allow,
      })
    ).hooks[0]!;
    expect(own).toMatchObject({ dialect: 'hookwarden', deadlineMs: 60_000 });
    expect(own.dedupKey).not.toBe(pre.dedupKey);
  });

  it('onFailure "block" is onError "deny" (command hooks too), "continue" is "skip"', async () => {
    const r = await loadConfig({
      config: [
        obj(
          hooksOn('PreToolUse', [
            { type: 'http', url: 'https://a.test/x', onFailure: 'block' },
            { type: 'command', command: 'true', onFailure: 'block' },
            { type: 'command', command: 'false', onFailure: 'continue' },
          ]),
        ),
      ],
      policy: [],
      hookTypes: allow,
    });
    expect(r.hooks.map((h) => h.onError)).toEqual(['deny', 'deny', 'skip']);
  });

  it('type "mcp_tool" is reported as unsupported, not as a broken entry', async () => {
    const r = await loadOne({ type: 'mcp_tool', server: 's', tool: 't' });
    expect(messages(r)).toEqual([
      expect.stringMatching(/^warning \(skipped\) .*hook type "mcp_tool" is not supported/),
    ]);
  });
});

describe('validate', () => {
  it('lists each http hook with its URL and the pattern that admits it; a refused one is a warning', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, 'settings.json', {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'http', url: 'https://hooks.example.com/pre' }] }],
        Stop: [{ hooks: [{ type: 'http', url: 'https://elsewhere.test/stop' }] }],
      },
    });
    const policy = writeConfig(dir, 'managed-settings.json', {
      allowedHttpHookUrls: ['https://hooks.example.com/*'],
    });
    const r = await validateConfig({ config: [config], policy: [policy] });
    expect(r.httpHooks).toEqual([
      {
        file: config,
        path: 'hooks.PreToolUse[0].hooks[0]',
        event: 'BeforeTool',
        url: 'https://hooks.example.com/pre',
        allowedBy: 'https://hooks.example.com/*',
      },
    ]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        path: 'hooks.Stop[0].hooks[0].url',
        skipped: true,
        message: expect.stringContaining(
          'https://elsewhere.test/stop matches no "allowedHttpHookUrls" pattern',
        ),
      }),
    ]);
  });
});
