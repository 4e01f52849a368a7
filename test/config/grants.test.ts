// Capabilities are granted, never taken: every field of a project file's or a tenant's hook that
// loosens its sandbox or reaches further takes effect only when a policy file's `grants` names it
// (per tenant, or "*"); otherwise the hook loads at the strict value and a warning at the field's
// JSON path names the refusal and the grant. A user's own file and the policy's hooks are not gated.
import { describe, expect, it } from 'vitest';
import type { SourceSpec } from '../../src/config/read-source.js';
import { lockPack } from '../../src/packs/lock-pack.js';
import type { HookDefinition } from '../../src/registry/hook-definition.js';
import { hooksOn, tempDir, writeConfig } from '../helpers/fixture.js';
import { loadConfig, objectSource } from '../helpers/load-config.js';
import { writePack } from '../helpers/pack.js';

const MiB = 1024 * 1024;
const obj = objectSource;

/** Every loosening field of each kind, asked for beyond its default. */
const COMMAND = {
  name: 'cmd',
  command: 'true',
  writable: true,
  runAs: 'nobody',
  inheritEnv: ['EDITOR', 'HW_GRANT_TEST'],
  timeoutMs: 120_000,
  maxOutputBytes: 8 * MiB,
  rlimits: { openFiles: 65_536, fileSizeBytes: 1024 * MiB, cpuSeconds: 3600 },
};
const JS = {
  name: 'js',
  code: 'export default () => {}',
  memoryBytes: 64 * MiB,
  maxOutputBytes: 512 * 1024,
  timeoutMs: 20_000,
  budgetMs: 90_000,
};
const HTTP = {
  name: 'http',
  type: 'http',
  url: 'https://hooks.example.com/x',
  headers: { 'x-e': '$EDITOR' },
  allowedEnvVars: ['EDITOR'],
  maxOutputBytes: 8 * MiB,
};
const ALL = hooksOn('BeforeTool', [COMMAND, JS, HTTP]);
const URLS = { allowedHttpHookUrls: ['https://hooks.example.com/*'] };

const byId = (hooks: readonly HookDefinition[]) => Object.fromEntries(hooks.map((h) => [h.id, h]));

/** The loosening values a hook ended with. */
function effective(h: HookDefinition | undefined) {
  if (h === undefined) return undefined;
  if (h.type === 'command')
    return {
      deadlineMs: h.deadlineMs,
      writable: h.command.writable,
      runAs: h.command.runAs,
      inheritEnv: h.command.inheritEnv,
      maxOutputBytes: h.command.maxOutputBytes,
      rlimits: h.command.rlimits,
    };
  if (h.type === 'js')
    return { deadlineMs: h.deadlineMs, memoryBytes: h.js.memoryBytes, maxOutputBytes: h.js.maxOutputBytes };
  if (h.type === 'http')
    return { deadlineMs: h.deadlineMs, envVars: h.http.envVars, maxOutputBytes: h.http.maxOutputBytes };
  return undefined;
}

const STRICT = {
  cmd: {
    deadlineMs: 60_000,
    writable: false,
    runAs: undefined,
    inheritEnv: [],
    maxOutputBytes: MiB,
    rlimits: { cpuSeconds: 0, openFiles: 1024, fileSizeBytes: 64 * MiB, addressSpaceBytes: undefined },
  },
  js: { deadlineMs: 30_000, memoryBytes: 32 * MiB, maxOutputBytes: 64 * 1024 },
  http: { deadlineMs: 60_000, envVars: [], maxOutputBytes: MiB },
};
const ASKED = {
  cmd: {
    deadlineMs: 120_000,
    writable: true,
    runAs: 'nobody',
    inheritEnv: ['EDITOR', 'HW_GRANT_TEST'],
    maxOutputBytes: 8 * MiB,
    rlimits: { cpuSeconds: 3600, openFiles: 65_536, fileSizeBytes: 1024 * MiB, addressSpaceBytes: undefined },
  },
  js: { deadlineMs: 95_000, memoryBytes: 64 * MiB, maxOutputBytes: 512 * 1024 },
  http: { deadlineMs: 60_000, envVars: ['EDITOR'], maxOutputBytes: 8 * MiB },
};
const FULL_GRANT = {
  writable: true,
  runAs: true,
  inheritEnv: ['EDITOR', 'HW_GRANT_TEST'],
  timeoutMs: 120_000,
  maxOutputBytes: 8 * MiB,
  memoryBytes: 64 * MiB,
  rlimits: { openFiles: 65_536, fileSizeBytes: 1024 * MiB, cpuSeconds: 3600 },
};

const warnings = (r: Awaited<ReturnType<typeof loadConfig>>) =>
  r.diagnostics.filter((d) => d.severity === 'warning').map((d) => `${d.path}: ${d.message}`);

describe('grants: a project file', () => {
  it('asks for every loosening field and gets the strict value of each, every refusal named with its grant', async () => {
    const r = await loadConfig({ config: [obj(ALL)], policy: [], hookTypes: URLS });
    const hooks = byId(r.hooks);
    for (const id of ['cmd', 'js', 'http'] as const)
      expect([id, effective(hooks[id])]).toEqual([id, STRICT[id]]);
    const w = warnings(r);
    for (const field of [
      'hooks[0].writable',
      'hooks[0].runAs',
      'hooks[0].inheritEnv',
      'hooks[0].timeoutMs',
      'hooks[0].maxOutputBytes',
      'hooks[0].rlimits.openFiles',
      'hooks[0].rlimits.fileSizeBytes',
      'hooks[0].rlimits.cpuSeconds',
      'hooks[1].budgetMs',
      'hooks[1].memoryBytes',
      'hooks[1].maxOutputBytes',
      'hooks[2].allowedEnvVars',
      'hooks[2].maxOutputBytes',
    ])
      expect(w).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^hooks\\.BeforeTool\\[0\\]\\.${field.replace(/[[\].]/g, '\\$&')}: .* is not granted to a project file's hooks: .*grants\\.project\\.`,
          ),
        ),
      );
    expect(r.policyFailures).toEqual([]);
  });

  it("gets what the policy grants, up to the grant (the wider of two policy files' grants)", async () => {
    const p1 = obj({ grants: { project: { ...FULL_GRANT, timeoutMs: 100_000 } } }, 'policy', '<p1>');
    const p2 = obj({ grants: { project: { timeoutMs: 120_000 } } }, 'policy', '<p2>');
    const r = await loadConfig({ config: [obj(ALL)], policy: [p1, p2], hookTypes: URLS });
    const hooks = byId(r.hooks);
    for (const id of ['cmd', 'js'] as const) expect([id, effective(hooks[id])]).toEqual([id, ASKED[id]]);
    // The http hook's 8 MiB is within the grant; the JS hook's budget deadline (95 s) too.
    expect(effective(hooks.http)).toEqual(ASKED.http);
    // A grant below what is asked: capped at the grant, named.
    const low = obj(
      { grants: { project: { maxOutputBytes: 2 * MiB, inheritEnv: ['EDITOR'] } } },
      'policy',
      '<low>',
    );
    const capped = byId((await loadConfig({ config: [obj(ALL)], policy: [low], hookTypes: URLS })).hooks);
    expect(effective(capped.cmd)).toMatchObject({ maxOutputBytes: 2 * MiB, inheritEnv: ['EDITOR'] });
  });

  it('a user-scope pack pinned by a project file answers to the project grant (no escape by pinning)', async () => {
    const dir = tempDir();
    const pack = writePack({
      name: 'repo-pack',
      hooks: hooksOn('BeforeTool', [{ ...COMMAND, command: './x.sh' }]).hooks,
      files: { 'x.sh': '#!/bin/sh\ntrue\n' },
    });
    const { digest } = await lockPack(pack);
    const project = writeConfig(dir, 'project.json', { packs: [{ path: pack, digest }] });
    const r = await loadConfig({ config: [{ kind: 'file', path: project, scope: 'project' }], policy: [] });
    expect(effective(r.hooks.find((h) => h.id === 'cmd'))).toEqual(STRICT.cmd);
    // Pinned by the user's own file, the same pack is the user's.
    const user = await loadConfig({ config: [{ kind: 'file', path: project, scope: 'user' }], policy: [] });
    expect(effective(user.hooks.find((h) => h.id === 'cmd'))).toMatchObject({
      writable: true,
      runAs: 'nobody',
    });
  });
});

describe('grants: not gated', () => {
  it.each([
    [
      'a user file',
      (c: unknown): { config: SourceSpec[]; policy: SourceSpec[] } => ({
        config: [obj(c, 'user')],
        policy: [],
      }),
    ],
    ['a policy file', (c: unknown) => ({ config: [] as SourceSpec[], policy: [obj(c, 'policy')] })],
  ])('%s keeps every field as written', async (_what, sources) => {
    const r = await loadConfig({ ...sources(ALL), hookTypes: URLS });
    const hooks = byId(r.hooks);
    expect(effective(hooks.cmd)).toEqual(ASKED.cmd);
    expect(effective(hooks.js)).toEqual(ASKED.js);
    expect(warnings(r).filter((w) => w.includes('not granted'))).toEqual([]);
  });
});

describe("grants: a tenant's hooks", () => {
  for (const where of ['policy', 'project', 'user'] as const) {
    it(`declared in a ${where} file are held to the tenant's grant, "*" for tenants without their own`, async () => {
      const grants = {
        tenants: {
          acme: { ...FULL_GRANT, allowedHttpHookUrls: ['https://hooks.example.com/*'] },
          '*': { inheritEnv: ['EDITOR'] },
        },
      };
      const tenants = { tenants: { acme: ALL, 'globex.eu': ALL, stranger: ALL } };
      const file = where === 'policy' ? { ...tenants, grants } : tenants;
      const r = await loadConfig({
        config: where === 'policy' ? [] : [obj(file, where)],
        policy: where === 'policy' ? [obj(file, 'policy')] : [obj({ grants }, 'policy', '<grants>')],
        // The top-level list admits the URL for the operator's own hooks only.
        hookTypes: URLS,
      });
      const acme = byId(r.tenants.get('acme')!.hooks);
      expect(effective(acme.cmd)).toEqual(ASKED.cmd);
      expect(effective(acme.http)).toEqual(ASKED.http);
      for (const other of ['globex.eu', 'stranger']) {
        const hooks = byId(r.tenants.get(other)!.hooks);
        expect([other, effective(hooks.cmd)]).toEqual([other, { ...STRICT.cmd, inheritEnv: ['EDITOR'] }]);
        expect([other, effective(hooks.js)]).toEqual([other, STRICT.js]);
        // No URL granted to them: their http hook does not run.
        expect([other, hooks.http]).toEqual([other, undefined]);
      }
      const w = warnings(r).join('\n');
      expect(w).toMatch(
        /tenants\["globex\.eu"\]\.hooks\.BeforeTool\[0\]\.hooks\[0\]\.writable: "writable" is not granted to tenant "globex\.eu"'s hooks: .*grants\.tenants\["globex\.eu"\]\.writable: true/,
      );
      expect(w).toMatch(
        /tenants\.stranger\.hooks\.BeforeTool\[0\]\.hooks\[2\]\.url: .*"grants": \{"tenants": \{"stranger"/,
      );
    });
  }

  it('a runtime tenant (setTenant) answers to its grant, its files whatever their scope', async () => {
    const { createExecutor } = await import('../../src/index.js');
    const seen: string[] = [];
    const hw = await createExecutor({
      policy: [{ grants: { tenants: { big: { maxOutputBytes: 8 * MiB } } } }],
      onWarning: (d) => seen.push(`${d.path}: ${d.message}`),
    });
    try {
      await hw.setTenant('small', { config: ALL });
      await hw.setTenant('big', { config: ALL });
      const { internalsOf } = await import('../../src/executor/internals.js');
      const gen = internalsOf(hw).generation();
      const own = (t: string) =>
        byId(gen.tenants.get(t)!.registry.hooksFor('BeforeTool') as HookDefinition[]);
      expect(effective(own('small').cmd)).toEqual(STRICT.cmd);
      expect(effective(own('big').cmd)).toMatchObject({
        maxOutputBytes: 8 * MiB,
        writable: false,
        inheritEnv: [],
      });
      expect(seen.join('\n')).toMatch(
        /tenant "small": .*"writable" is not granted to tenant "small"'s hooks/,
      );
    } finally {
      await hw.close();
    }
  });
});

describe('grants: the key itself', () => {
  it.each([
    [{ project: { writeable: true } }, 'grants.project', /unrecognized key|writeable/i],
    [{ tenants: { 'bad/id': {} } }, 'grants.tenants["bad/id"]', /tenant ids \(or "\*"\)/],
    [{ project: { inheritEnv: ['$HOME'] } }, 'grants.project.inheritEnv[0]', /variable name/],
    [{ project: { timeoutMs: -1 } }, 'grants.project.timeoutMs', /positive/],
    [
      { tenants: { acme: { allowedHttpHookUrls: ['ftp://x'] } } },
      'grants.tenants.acme.allowedHttpHookUrls[0]',
      /./,
    ],
    [{ everyone: {} }, 'grants', /unrecognized key|everyone/i],
    [['writable'], 'grants', /object/],
  ])('%j in a policy file is a policy failure at %s', async (value, path, message) => {
    const r = await loadConfig({ config: [], policy: [obj({ grants: value }, 'policy', '<p>')] });
    expect(r.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', path, message: expect.stringMatching(message) }),
    );
    expect(r.policyFailures).toEqual([expect.stringMatching(/^policy <p> is invalid/)]);
  });

  it.each(['project', 'user'] as const)(
    'in a %s file is ignored with a warning (only a policy grants)',
    async (scope) => {
      const r = await loadConfig({
        config: [obj({ grants: { project: FULL_GRANT }, ...ALL }, scope)],
        policy: [],
        hookTypes: URLS,
      });
      expect(warnings(r)).toContainEqual(
        expect.stringMatching(/^grants: ignored: only a policy file grants/),
      );
      if (scope === 'project') expect(effective(byId(r.hooks).cmd)).toEqual(STRICT.cmd);
    },
  );
});
