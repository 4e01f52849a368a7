// Wasm hooks in the grant table: a project file's or a tenant's wasm hook gets a memory cap, an
// output cap or a deadline beyond the defaults only as the policy grants them (grants.*.memoryBytes,
// maxOutputBytes, timeoutMs, as a JS hook's heap and deadline); otherwise it runs at the default and
// the load names the refusal. The memory cap is compiled into the module, so it is judged before:
// a module that grows past the strict cap ends `memory_limit`, one that declares a larger minimum
// is refused at load. A user's own file and the policy's hooks are not gated.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SourceSpec } from '../../src/config/read-source.js';
import { createExecutor } from '../../src/index.js';
import type { HookDefinition } from '../../src/registry/hook-definition.js';
import { tempDir, writeConfig, writeFile } from '../helpers/fixture.js';
import { loadConfig } from '../helpers/load-config.js';
import { WASI_PRELUDE, wat } from '../helpers/wasm.js';

const MiB = 1024 * 1024;
const PAGE = 65_536;
let dir: string;

/** Grows its memory to `mib` MiB (a trap when refused), then answers {}. */
const growTo = (mib: number) => `(module ${WASI_PRELUDE} (data (i32.const 600) "{}")
  (func (export "_start")
    (if (i32.eq (memory.grow (i32.sub (i32.const ${(mib * MiB) / PAGE}) (memory.size))) (i32.const -1))
      (then unreachable))
    (call $write (i32.const 1) (i32.const 600) (i32.const 2))))`;

beforeAll(async () => {
  dir = tempDir('hw-grants-wasm-');
  writeFile(join(dir, 'grow48.wasm'), Buffer.from(await wat(growTo(48))));
  writeFile(join(dir, 'grow20.wasm'), Buffer.from(await wat(growTo(20))));
  // Declares a 40 MiB minimum: refused where the cap is 32 MiB.
  const min40 = growTo(1).replace('(memory (export "memory") 2)', '(memory (export "memory") 640)');
  if (!min40.includes('640')) throw new Error("the prelude's memory changed: declare the minimum here");
  writeFile(join(dir, 'min40.wasm'), Buffer.from(await wat(min40)));
});

const source = (value: unknown, scope: SourceSpec['scope'], label = '<test>'): SourceSpec => ({
  kind: 'object',
  value,
  scope,
  label,
  dir,
});

/** A wasm hook asking for every loosening field beyond its default. */
const WASM = (name: string, file = 'grow48.wasm') => ({
  name,
  type: 'wasm',
  source: file,
  memoryBytes: 64 * MiB,
  maxOutputBytes: 8 * MiB,
  timeoutMs: 20_000,
  budgetMs: 90_000,
});
const config = (...hooks: unknown[]) => ({ hooks: { BeforeTool: [{ hooks }] } });

function effective(h: HookDefinition | undefined) {
  if (h?.type !== 'wasm') return undefined;
  const { memoryBytes, maxOutputBytes, memoryPages } = h.wasm;
  return { deadlineMs: h.deadlineMs, memoryBytes, maxOutputBytes, maximumPages: memoryPages?.maximum };
}
const STRICT = { deadlineMs: 30_000, memoryBytes: 32 * MiB, maxOutputBytes: MiB, maximumPages: 512 };
const ASKED = { deadlineMs: 95_000, memoryBytes: 64 * MiB, maxOutputBytes: 8 * MiB, maximumPages: 1024 };
const FULL = { timeoutMs: 95_000, maxOutputBytes: 8 * MiB, memoryBytes: 64 * MiB };

const warnings = (r: Awaited<ReturnType<typeof loadConfig>>) =>
  r.diagnostics.filter((d) => d.severity === 'warning').map((d) => `${d.path}: ${d.message}`);
const byId = (hooks: readonly HookDefinition[]) => Object.fromEntries(hooks.map((h) => [h.id, h]));

describe('grants: wasm hooks of a project file', () => {
  it('get the strict memory cap, output cap and deadline, each refusal named with its grant', async () => {
    const r = await loadConfig({ config: [source(config(WASM('guard')), 'project')], policy: [] });
    expect(effective(byId(r.hooks).guard)).toEqual(STRICT);
    const w = warnings(r);
    for (const field of ['memoryBytes', 'maxOutputBytes', 'budgetMs'])
      expect(w).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^hooks\\.BeforeTool\\[0\\]\\.hooks\\[0\\]\\.${field}: .* is not granted to a project file's hooks: .*grants\\.project\\.${field === 'budgetMs' ? 'timeoutMs' : field}`,
          ),
        ),
      );
  });

  it('get what the policy grants, up to the grant; what is within the defaults is never gated', async () => {
    const grant = (g: object) => source({ grants: { project: g } }, 'policy', '<policy>');
    const full = await loadConfig({ config: [source(config(WASM('a')), 'project')], policy: [grant(FULL)] });
    expect(effective(byId(full.hooks).a)).toEqual(ASKED);
    expect(warnings(full).filter((w) => w.includes('not granted'))).toEqual([]);
    const low = await loadConfig({
      config: [source(config(WASM('b')), 'project')],
      policy: [grant({ memoryBytes: 48 * MiB, maxOutputBytes: 2 * MiB })],
    });
    expect(effective(byId(low.hooks).b)).toEqual({
      deadlineMs: 30_000,
      memoryBytes: 48 * MiB,
      maxOutputBytes: 2 * MiB,
      maximumPages: 768,
    });
    const modest = {
      ...WASM('c'),
      memoryBytes: 16 * MiB,
      maxOutputBytes: 4096,
      timeoutMs: 2_000,
      budgetMs: undefined,
    };
    const within = await loadConfig({ config: [source(config(modest), 'project')], policy: [] });
    expect(effective(byId(within.hooks).c)).toEqual({
      deadlineMs: 2_000,
      memoryBytes: 16 * MiB,
      maxOutputBytes: 4096,
      maximumPages: 256,
    });
    expect(warnings(within).filter((w) => w.includes('not granted'))).toEqual([]);
  });

  it('a module declaring a minimum above the strict cap is refused at load, and loads when granted', async () => {
    const hook = { ...WASM('min'), source: 'min40.wasm' };
    const strict = await loadConfig({ config: [source(config(hook), 'project')], policy: [] });
    expect(byId(strict.hooks).min).toBeUndefined();
    expect(strict.diagnostics.map((d) => `${d.path}: ${d.message}`).join('\n')).toMatch(
      /hooks\.BeforeTool\[0\]\.hooks\[0\]\.source: .*memory/,
    );
    const granted = await loadConfig({
      config: [source(config(hook), 'project')],
      policy: [source({ grants: { project: { memoryBytes: 64 * MiB } } }, 'policy', '<p>')],
    });
    expect(effective(byId(granted.hooks).min)?.memoryBytes).toBe(64 * MiB);
  });

  it('a user file and the policy keep every field as written', async () => {
    for (const scope of ['user', 'policy'] as const) {
      const file = source(config(WASM('own')), scope);
      const r = await loadConfig(
        scope === 'user' ? { config: [file], policy: [] } : { config: [], policy: [file] },
      );
      expect([scope, effective(byId(r.hooks).own)]).toEqual([scope, ASKED]);
    }
  });
});

describe("grants: a tenant's wasm hooks", () => {
  for (const where of ['policy', 'project', 'user'] as const) {
    it(`declared in a ${where} file are held to the tenant's grant, "*" for tenants without their own`, async () => {
      const grants = { tenants: { acme: FULL, '*': { maxOutputBytes: 2 * MiB } } };
      const tenants = {
        tenants: { acme: config(WASM('w')), 'globex.eu': config(WASM('w')), stranger: config(WASM('w')) },
      };
      const file = where === 'policy' ? { ...tenants, grants } : tenants;
      const r = await loadConfig({
        config: where === 'policy' ? [] : [source(file, where)],
        policy: [source(where === 'policy' ? file : { grants }, 'policy', '<policy>')],
      });
      expect(effective(byId(r.tenants.get('acme')!.hooks).w)).toEqual(ASKED);
      for (const other of ['globex.eu', 'stranger'])
        expect([other, effective(byId(r.tenants.get(other)!.hooks).w)]).toEqual([
          other,
          { ...STRICT, maxOutputBytes: 2 * MiB },
        ]);
      expect(warnings(r).join('\n')).toMatch(
        /tenants\["globex\.eu"\]\.hooks\.BeforeTool\[0\]\.hooks\[0\]\.memoryBytes: "memoryBytes" 67108864 is not granted to tenant "globex\.eu"'s hooks: .*grants\.tenants\["globex\.eu"\]\.memoryBytes: 67108864/,
      );
    });
  }
});

describe('grants: the memory cap holds at run time', () => {
  it('a project module growing to 48 MiB ends memory_limit without the grant, and runs with it', async () => {
    const project = writeConfig(
      dir,
      'run.json',
      config(WASM('grow'), { ...WASM('small'), source: 'grow20.wasm' }),
    );
    const outcomes = async (policy: Record<string, unknown>[]) => {
      const hw = await createExecutor({ config: [project], policy, root: dir, onWarning: () => {} });
      try {
        const r = await hw.dispatch('BeforeTool', { toolName: 'Bash', toolInput: { command: 'ls' } });
        return Object.fromEntries(r.hooks.map((h) => [h.id, h.error?.code ?? h.outcome]));
      } finally {
        await hw.close();
      }
    };
    expect(await outcomes([])).toEqual({ grow: 'memory_limit', small: 'proceed' });
    expect(await outcomes([{ grants: { project: { memoryBytes: 64 * MiB } } }])).toEqual({
      grow: 'proceed',
      small: 'proceed',
    });
    // A tenant: the same module, its grant or none.
    const hw = await createExecutor({
      policy: [{ grants: { tenants: { big: { memoryBytes: 64 * MiB } } } }],
      root: dir,
      onWarning: () => {},
    });
    try {
      const file = writeConfig(dir, 'tenant.json', config(WASM('grow')));
      for (const t of ['big', 'small']) await hw.setTenant(t, { config: file });
      const codeOf = async (tenant: string) => {
        const r = await hw.dispatch('BeforeTool', { toolName: 'Bash', toolInput: {} }, { tenant });
        const h = r.hooks.find((x) => x.id === 'grow');
        return h?.error?.code ?? h?.outcome;
      };
      expect([await codeOf('big'), await codeOf('small')]).toEqual(['proceed', 'memory_limit']);
    } finally {
      await hw.close();
    }
  });
});
