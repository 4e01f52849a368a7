// `sessionEnv` in a policy file: what the operator consents to hooks setting for the session. Only a
// policy file decides; a mistake in it is a policy failure (deny-capable events deny).
import { describe, expect, it } from 'vitest';
import { hooksOn, input, withExecutor } from '../helpers/fixture.js';
import { loadConfig, objectSource } from '../helpers/load-config.js';

const obj = objectSource;
const messages = (r: Awaited<ReturnType<typeof loadConfig>>) =>
  r.diagnostics.map((d) => `${d.severity} ${d.file} ${d.path}: ${d.message}`);

/** A JS SessionStart hook answering `sessionEnv`. */
const setting = (env: Record<string, string>) =>
  hooksOn('SessionStart', [
    { type: 'js', code: `export default () => ({ sessionEnv: ${JSON.stringify(env)} })` },
  ]);

describe('sessionEnv in a policy file', () => {
  it('is read from policy files, lists joined; a project or user file cannot consent', async () => {
    const r = await loadConfig({
      config: [
        obj({ sessionEnv: { allow: ['BASH_ENV'] } }),
        obj({ sessionEnv: { pathDirs: ['/tmp'] } }, 'user'),
      ],
      policy: [
        obj(
          { sessionEnv: { allow: ['NODE_OPTIONS'], pathDirs: ['~/.nvm/versions/', '/opt/./tools/'] } },
          'policy',
          '<p1>',
        ),
        obj({ sessionEnv: { allow: ['node_options', 'JAVA_HOME'] } }, 'policy', '<p2>'),
      ],
    });
    expect(r.sessionEnv).toEqual({
      allow: ['NODE_OPTIONS', 'JAVA_HOME'],
      pathDirs: ['~/.nvm/versions', '/opt/tools'],
      narrowUserHooks: false,
    });
    expect(messages(r)).toEqual([
      expect.stringMatching(/^warning <test> sessionEnv: ignored: only a policy file can consent/),
      expect.stringMatching(
        /^warning <test> sessionEnv: ignored: only a policy file can consent .* a user file/,
      ),
    ]);
    expect(r.policyFailures).toEqual([]);
  });

  it.each([
    [{ allow: ['LD_PRELOAD'] }, 'sessionEnv.allow[0]', /dynamic loader.*no policy can allow it/],
    [{ allow: ['PATH'] }, 'sessionEnv.allow[0]', /PATH is admitted by directory.*pathDirs/],
    [{ allow: ['$PATH'] }, 'sessionEnv.allow[0]', /expected a variable name/],
    [{ allow: 'BASH_ENV' }, 'sessionEnv.allow', /expected an array of strings/],
    [{ pathDirs: ['opt/bin'] }, 'sessionEnv.pathDirs[0]', /expected an absolute directory or one under ~\//],
    [{ pathDirs: [3] }, 'sessionEnv.pathDirs[0]', /expected a string/],
    [{ pathdirs: ['/opt'] }, 'sessionEnv.pathdirs', /unknown key \(did you mean "pathDirs"\?\)/],
    [{ narrowUserHooks: 'yes' }, 'sessionEnv.narrowUserHooks', /expected true or false/],
    [['PATH'], 'sessionEnv', /expected an object/],
  ])('%j is a policy failure at %s', async (value, path, message) => {
    const r = await loadConfig({ config: [], policy: [obj({ sessionEnv: value }, 'policy', '<p>')] });
    expect(r.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', path, message: expect.stringMatching(message) }),
    );
    expect(r.policyFailures).toEqual([expect.stringMatching(/^policy <p> is invalid/)]);
  });

  it('warns about an entry that changes nothing and a directory that admits everything', async () => {
    const r = await loadConfig({
      config: [],
      policy: [obj({ sessionEnv: { allow: ['NODE_ENV'], pathDirs: ['/'] } }, 'policy', '<p>')],
    });
    expect(messages(r)).toEqual([
      expect.stringMatching(
        /sessionEnv.allow\[0\]: "NODE_ENV" is on the built-in list of inert variables already/,
      ),
      expect.stringMatching(/sessionEnv.pathDirs\[0\]: "\/" admits every directory below it/),
    ]);
    expect(r.policyFailures).toEqual([]);
  });

  it("consents for every hook's answer: a project hook's NODE_OPTIONS and nvm PATH pass only with it", async () => {
    const env = { NODE_OPTIONS: '--max-old-space-size=4096', PATH: '/opt/node/v20/bin:/usr/bin:/bin' };
    await withExecutor({ config: [setting(env)] }, async (hw) => {
      const r = await hw.dispatch('SessionStart', input());
      expect(r.sessionEnv).toBeUndefined();
      expect(r.hooks[0]?.ignoredFields).toEqual(['sessionEnv.NODE_OPTIONS', 'sessionEnv.PATH']);
      expect(r.hooks[0]?.warnings).toHaveLength(2);
    });
    const policy = { sessionEnv: { allow: ['NODE_OPTIONS'], pathDirs: ['/opt/node'] } };
    await withExecutor({ config: [setting(env)], policy: [policy] }, async (hw) => {
      const r = await hw.dispatch('SessionStart', input());
      expect(r.sessionEnv).toEqual(env);
      expect(r.sessionEnvScript).toBe(
        'export NODE_OPTIONS=--max-old-space-size=4096\nexport PATH=/opt/node/v20/bin:/usr/bin:/bin',
      );
      expect(r.hooks[0]?.ignoredFields).toBeUndefined();
    });
  });

  it('a JS hook is sandboxed: even at policy scope, its PATH needs pathDirs', async () => {
    const env = { PATH: '/opt/node/v20/bin:/usr/bin' };
    await withExecutor({ policy: [setting(env)] }, async (hw) => {
      const r = await hw.dispatch('SessionStart', input());
      expect([r.sessionEnv, r.hooks[0]?.ignoredFields]).toEqual([undefined, ['sessionEnv.PATH']]);
    });
    await withExecutor(
      { policy: [{ ...setting(env), sessionEnv: { pathDirs: ['/opt/node'] } }] },
      async (hw) => {
        expect((await hw.dispatch('SessionStart', input())).sessionEnv).toEqual(env);
      },
    );
  });
});
