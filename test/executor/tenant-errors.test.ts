// A tenant's error stays that tenant's: a problem inside `tenants.<id>` (of a policy file or any
// other) fails that tenant closed — its deny-capable events deny, with a reason naming it — and
// leaves every other tenant, untenanted dispatches and the policy's own hooks as they were. On
// reload, a tenant whose new section is broken keeps its last good state while the rest reloads.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { input, printing, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

const jsAllow = (name: string) => ({
  name,
  type: 'js',
  code: "export default () => ({ decision: 'allow' })",
});
const GOOD = { hooks: { BeforeTool: [{ hooks: [jsAllow('own-guard')] }] } };
const POLICY_HOOKS = {
  BeforeTool: [{ hooks: [printing({ additionalContext: 'policy ran' }, { name: 'policy-note' })] }],
};
const TOOL = input({ toolName: 'Bash', toolInput: { command: 'ls' } });

/** Ways a tenant's section can be wrong, each of a different kind. */
const BROKEN: [string, unknown][] = [
  [
    'an absolute JS source',
    { hooks: { BeforeTool: [{ hooks: [{ type: 'js', source: '/etc/hookwarden/x.js' }] }] } },
  ],
  ['an invalid limit', { ...GOOD, limits: { maxQueued: -1 } }],
  ['a misspelt field', { ...GOOD, isolaton: 'process' }],
  ['a hook of no known type', { hooks: { BeforeTool: [{ hooks: [{ type: 'bogus', command: 'x' }] }] } }],
  [
    'a pack that is not there',
    { ...GOOD, packs: [{ path: './nowhere', digest: `sha256:${'0'.repeat(64)}` }] },
  ],
  ['hooks that are not an object', { hooks: 'BeforeTool' }],
];

describe("a tenant's error", () => {
  for (const where of ['policy', 'config'] as const) {
    it.each(BROKEN)(
      `in a ${where} file (%s) fails that tenant closed, and nobody else`,
      async (_what, broken) => {
        const dir = tempDir();
        const file = writeConfig(dir, 'tenants.json', {
          ...(where === 'policy' ? { hooks: POLICY_HOOKS } : {}),
          tenants: { 'acme.eu': broken, globex: GOOD },
        });
        const policy = where === 'policy' ? [file] : [{ hooks: POLICY_HOOKS }];
        await withExecutor(
          { policy, ...(where === 'config' ? { config: [file] } : {}), root: dir },
          async (hw, warnings) => {
            const acme = await hw.dispatch('BeforeTool', TOOL, { tenant: 'acme.eu' });
            expect(acme.decision).toBe('deny');
            expect(acme.reason).toMatch(/tenant "acme\.eu" is invalid: /);
            // Observers still run what of the tenant loaded, the policy's hooks first.
            const globex = await hw.dispatch('BeforeTool', TOOL, { tenant: 'globex' });
            expect([globex.decision, globex.additionalContext]).toEqual(['allow', 'policy ran']);
            const none = await hw.dispatch('BeforeTool', TOOL);
            expect([none.decision, none.additionalContext]).toEqual(['passthrough', 'policy ran']);
            // The log names the tenant and what is denied.
            expect(warnings.join('\n')).toMatch(
              /tenants\.acme\.eu: tenant "acme\.eu" fails closed: its deny-capable events deny/,
            );
          },
        );
      },
    );
  }

  it('keeps its last good state on reload, while the rest of the file reloads; fixed, it takes the new one', async () => {
    const dir = tempDir();
    const path = join(dir, 'policy.json');
    const write = (acme: unknown, globexNote: string) =>
      writeFileSync(
        path,
        JSON.stringify({
          hooks: POLICY_HOOKS,
          tenants: {
            acme,
            globex: { hooks: { BeforeTool: [{ hooks: [printing({ additionalContext: globexNote })] }] } },
          },
        }),
      );
    const guard = (reason: string) => ({
      hooks: {
        BeforeTool: [
          {
            hooks: [{ type: 'js', code: `export default () => ({ decision: 'deny', reason: '${reason}' })` }],
          },
        ],
      },
    });
    write(guard('acme v1'), 'globex v1');
    const reloads: unknown[] = [];
    await withExecutor(
      { policy: [path], root: dir, onReload: (r) => reloads.push(r) },
      async (hw, warnings) => {
        expect((await hw.dispatch('BeforeTool', TOOL, { tenant: 'acme' })).reason).toBe('acme v1');
        write({ ...guard('acme v2'), limits: { weight: 0 } }, 'globex v2');
        const r = await hw.reload();
        expect(r).toMatchObject({ ok: true, generation: 2 });
        // acme: v1 still in force (not denied as broken, not v2); globex: v2.
        expect((await hw.dispatch('BeforeTool', TOOL, { tenant: 'acme' })).reason).toBe('acme v1');
        expect((await hw.dispatch('BeforeTool', TOOL, { tenant: 'globex' })).additionalContext).toBe(
          'policy ran\nglobex v2',
        );
        expect(warnings.join('\n')).toMatch(
          /tenant "acme": its new configuration is invalid .*limits\.weight.*last good configuration stays in force/,
        );
        // Another unrelated reload: acme keeps its last good state.
        write({ ...guard('acme v2'), limits: { weight: 0 } }, 'globex v3');
        await hw.reload();
        expect((await hw.dispatch('BeforeTool', TOOL, { tenant: 'acme' })).reason).toBe('acme v1');
        write(guard('acme v3'), 'globex v3');
        expect(await hw.reload()).toMatchObject({ ok: true });
        expect((await hw.dispatch('BeforeTool', TOOL, { tenant: 'acme' })).reason).toBe('acme v3');
      },
    );
  });
});
