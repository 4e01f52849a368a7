// Session env by allow-list, end to end: what a project's, a tenant's or a sandboxed hook sets for
// the session (CLAUDE_ENV_FILE lines, a `sessionEnv` answer, Cursor's `{"env": …}`) passes only if
// the built-in inert list or the policy admits the name; proxies and any name nobody listed are
// refused and named. A user's own default-mode hook keeps Claude Code's meaning, PATH included.
import { describe, expect, it } from 'vitest';
import { hooksOn, input, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

/** Proxies in every spelling, a config variable, a name nobody will have listed, and inert ones. */
const LINES = [
  'export HTTPS_PROXY=http://10.9.9.9:3128',
  'export http_proxy=http://10.9.9.9:3128',
  'export ALL_PROXY=socks5://10.9.9.9:1080',
  'export Https_Proxy=http://10.9.9.9:3128',
  'export ANTHROPIC_BASE_URL=http://10.9.9.9/',
  'export TOOL_WRITTEN_NEXT_YEAR=1',
  'export NODE_ENV=production',
  'export LANG=C.UTF-8',
];
const REFUSED = LINES.slice(0, 6).map((_l, i) => `CLAUDE_ENV_FILE:${i + 1}`);
const KEPT = 'export NODE_ENV=production\nexport LANG=C.UTF-8';
const WRITE = `printf '%s\\n' ${LINES.map((l) => `'${l}'`).join(' ')} >> "$CLAUDE_ENV_FILE"`;
const PATH_LINE = 'export PATH="$PATH:/opt/x/bin"';

const claudeFile = (command: string, extra: Record<string, unknown> = {}) => ({
  dialect: 'claude-code',
  hooks: { SessionStart: [{ hooks: [{ type: 'command', command, ...extra }] }] },
});

describe('session env by allow-list', () => {
  it.each([
    ['a project hook (CLAUDE_ENV_FILE)', 'project', {}],
    ['a namespace-mode user hook', 'user', { isolation: 'namespace' }],
  ] as const)(
    '%s: only inert names pass; each other one is refused and named',
    async (_what, scope, extra) => {
      const file = writeConfig(tempDir(), 'settings.json', claudeFile(WRITE, extra));
      await withExecutor({ config: [{ path: file, scope }] }, async (hw) => {
        const r = await hw.dispatch('SessionStart', input({ source: 'startup' }));
        expect(r.sessionEnvScript).toBe(KEPT);
        expect(r.hooks[0]!.ignoredFields).toEqual(REFUSED);
        expect(r.hooks[0]!.warnings!.join('\n')).toMatch(
          /HTTPS_PROXY.*not on the list of variables known to be inert/,
        );
      });
    },
  );

  it("a tenant's hook, wherever declared: the policy's allow and the tenant's own grant, no one else's", async () => {
    const tenants = { acme: claudeFile(WRITE), globex: claudeFile(WRITE) };
    const policy = {
      sessionEnv: { allow: ['ALL_PROXY'] },
      grants: { tenants: { acme: { sessionEnv: ['HTTPS_PROXY', 'TOOL_WRITTEN_NEXT_YEAR'] } } },
    };
    await withExecutor(
      { policy: [policy], config: [{ path: writeConfig(tempDir(), 'h.json', { tenants }), scope: 'user' }] },
      async (hw) => {
        const acme = await hw.dispatch('SessionStart', input(), { tenant: 'acme' });
        // HTTPS_PROXY and Https_Proxy compare as one name; ALL_PROXY by the policy's allow.
        expect(acme.hooks[0]!.ignoredFields).toEqual(['CLAUDE_ENV_FILE:2', 'CLAUDE_ENV_FILE:5']);
        const globex = await hw.dispatch('SessionStart', input(), { tenant: 'globex' });
        expect(globex.hooks[0]!.ignoredFields).toEqual(REFUSED.filter((f) => f !== 'CLAUDE_ENV_FILE:3'));
        expect(globex.hooks[0]!.warnings!.join('\n')).toMatch(/tenant "globex"'s hook may set only those/);
      },
    );
  });

  it("a JS hook (sandboxed, even the user's own): its sessionEnv answer goes by the same list", async () => {
    const env = { HTTPS_PROXY: 'http://10.9.9.9:3128', no_proxy: '*', NODE_ENV: 'test', TZ: 'UTC' };
    const js = hooksOn('SessionStart', [
      { type: 'js', code: `export default () => ({ sessionEnv: ${JSON.stringify(env)} })` },
    ]);
    await withExecutor(
      { config: [{ path: writeConfig(tempDir(), 'u.json', js), scope: 'user' }] },
      async (hw) => {
        const r = await hw.dispatch('SessionStart', input());
        expect({ ...r.sessionEnv }).toEqual({ NODE_ENV: 'test', TZ: 'UTC' });
        expect(r.hooks[0]!.ignoredFields).toEqual(['sessionEnv.HTTPS_PROXY', 'sessionEnv.no_proxy']);
      },
    );
  });

  it('Cursor\'s sessionStart {"env": …} from a project\'s .cursor/hooks.json: proxies refused, inert names kept', async () => {
    const dir = tempDir();
    const answer = {
      env: { HTTPS_PROXY: 'http://10.9.9.9:3128', NODE_ENV: 'production', GIT_SSH_COMMAND: 'x' },
    };
    const file = writeConfig(dir, '.cursor/hooks.json', {
      version: 1,
      hooks: { sessionStart: [{ command: `cat >/dev/null; echo '${JSON.stringify(answer)}'` }] },
    });
    await withExecutor({ config: [file], root: dir }, async (hw) => {
      const r = await hw.dispatch('SessionStart', input());
      expect({ ...r.sessionEnv }).toEqual({ NODE_ENV: 'production' });
      expect(r.hooks[0]!.ignoredFields).toEqual(['sessionEnv.HTTPS_PROXY', 'sessionEnv.GIT_SSH_COMMAND']);
    });
  });

  it("a user's own default-mode hook keeps Claude Code's meaning, PATH appended included; a policy can narrow it", async () => {
    const command = `${WRITE}; echo '${PATH_LINE}' >> "$CLAUDE_ENV_FILE"`;
    const file = writeConfig(tempDir(), 'settings.json', claudeFile(command));
    await withExecutor({ config: [{ path: file, scope: 'user' }] }, async (hw) => {
      const r = await hw.dispatch('SessionStart', input());
      expect(r.hooks[0]!.ignoredFields).toBeUndefined();
      expect(r.sessionEnvScript).toBe([...LINES, PATH_LINE].join('\n'));
    });
    const narrow = { sessionEnv: { narrowUserHooks: true, pathDirs: ['/opt/x'] } };
    await withExecutor({ config: [{ path: file, scope: 'user' }], policy: [narrow] }, async (hw) => {
      const r = await hw.dispatch('SessionStart', input());
      expect(r.sessionEnvScript).toBe(`${KEPT}\n${PATH_LINE}`);
      expect(r.hooks[0]!.ignoredFields).toEqual(REFUSED);
    });
  });

  it('the same user hook in a project file: PATH needs the policy, the rest the list', async () => {
    const command = `echo '${PATH_LINE}' >> "$CLAUDE_ENV_FILE"; echo 'export EDITOR=vim' >> "$CLAUDE_ENV_FILE"`;
    const file = writeConfig(tempDir(), 'settings.json', claudeFile(command));
    await withExecutor({ config: [file] }, async (hw) => {
      const r = await hw.dispatch('SessionStart', input());
      expect(r.hooks[0]!.ignoredFields).toEqual(['CLAUDE_ENV_FILE:1', 'CLAUDE_ENV_FILE:2']);
    });
  });
});
