// Trust invariant 1, limits: a lower scope can only tighten. One table (LIMIT_RULES) says, for every
// limit key, its direction and reach; these tests iterate it, so a new key without a rule, or a rule
// the loader does not apply, fails here.
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../src/config/defaults.js';
import { limitsSchema } from '../../src/config/limits-schema.js';
import { TENANT_LIMIT_RULES } from '../../src/config/merge-tenant-limits.js';
import type { SourceSpec } from '../../src/config/read-source.js';
import { LIMIT_RULES, type LimitKey } from '../../src/config/scope-limits.js';
import { loadConfig } from '../helpers/load-config.js';

/** For each key: a value tighter and one looser than the default (both valid). */
const SAMPLES = {
  maxHookCalls: { tighter: 3, looser: 4000 },
  maxDeclaredBudgetMs: { tighter: 1000, looser: 900_000 },
  maxInputBytes: { tighter: 1000, looser: 64 * 1024 * 1024 },
  maxInputDepth: { tighter: 8, looser: 500 },
  minIsolation: { tighter: 'namespace', looser: 'process' },
  maxConcurrentCommands: { tighter: 2, looser: 900 },
  killGraceMs: { tighter: 100, looser: 50_000 },
  jsThreads: { tighter: 1, looser: 60 },
  jsBackstopGraceMs: { tighter: 100, looser: 50_000 },
  jsHeapCeilingBytes: { tighter: 32 * 1024 * 1024, looser: 1024 * 1024 * 1024 },
  maxWasmMemoryBytes: { tighter: 4 * 1024 * 1024, looser: 1024 * 1024 * 1024 },
  maxAsyncQueued: { tighter: 10, looser: 5000 },
  fairShareIdleMs: { tighter: 100, looser: 60_000 },
  tenantMaxQueued: { tighter: 10, looser: 5000 },
  tenantRatePerSec: { tighter: 5, looser: 50_000 },
  tenantRateBurst: { tighter: 1, looser: 5000 },
} as const satisfies Record<LimitKey, { tighter: unknown; looser: unknown }>;

const KEYS = Object.keys(LIMIT_RULES) as LimitKey[];

const source = (scope: 'policy' | 'project' | 'user', limits: Record<string, unknown>): SourceSpec => ({
  kind: 'object',
  value: { limits },
  scope,
  label: `<${scope}>`,
  dir: '/tmp',
});

async function load(sources: SourceSpec[], override?: Record<string, unknown>) {
  return loadConfig({
    config: sources.filter((s) => s.scope !== 'policy'),
    policy: sources.filter((s) => s.scope === 'policy'),
    limits: override,
  });
}

/** The default the policy level starts from, as a scope sees it. */
const defaultFor = (k: LimitKey) =>
  k === 'minIsolation' ? 'process' : (DEFAULTS.limits as Readonly<Record<string, unknown>>)[k];

describe('limits by scope (a lower scope can only tighten)', () => {
  it('has exactly one rule for every limit key of the schema', () => {
    expect(KEYS.sort()).toEqual(Object.keys(limitsSchema.shape).sort());
  });

  describe.each(KEYS)('%s', (key) => {
    const rule = LIMIT_RULES[key];
    const { tighter, looser } = SAMPLES[key];

    if (rule.reach === 'scope' || rule.fromLowerScopes === 'ignored') {
      it('a project or user value never reaches policy hooks', async () => {
        for (const scope of ['project', 'user'] as const) {
          for (const value of [tighter, looser]) {
            const r = await load([source(scope, { [key]: value })]);
            expect(r.scopeLimits.policy[key], `${scope} ${String(value)}`).toBe(defaultFor(key));
            expect(r.scopeLimits.trusted[key]).toBe(defaultFor(key));
          }
        }
      });
    }

    it('a project value looser than the one in force is ignored with a warning naming the key', async () => {
      const r = await load([source('policy', { [key]: tighter }), source('project', { [key]: looser })]);
      for (const scope of ['project', 'user'] as const) expect(r.scopeLimits[scope][key]).toBe(tighter);
      expect(r.limits[key]).toBe(rule.reach === 'executor' ? tighter : r.limits[key]);
      expect(r.diagnostics.map((d) => d.path)).toEqual([`limits.${key}`]);
      expect(r.diagnostics[0]).toMatchObject({
        severity: 'warning',
        message: expect.stringMatching(/^ignored: /),
      });
    });

    if (rule.fromLowerScopes === 'ignored') {
      it('is ignored from project and user files even when tighter (it shapes the executor)', async () => {
        const r = await load([source('project', { [key]: tighter }), source('user', { [key]: tighter })]);
        expect(r.limits[key]).toBe(defaultFor(key));
        expect(r.scopeLimits.user[key]).toBe(defaultFor(key));
        expect(r.diagnostics).toHaveLength(2);
      });
    } else if (rule.reach === 'executor') {
      it('a tighter project value tightens the executor (it cannot fail a policy hook)', async () => {
        const r = await load([source('project', { [key]: tighter })]);
        expect(r.limits[key]).toBe(tighter);
        expect(r.diagnostics).toEqual([]);
      });
    } else {
      it('a tighter value applies to its own scope and every less-trusted one (trust order: user > project)', async () => {
        const user = await load([source('user', { [key]: tighter })]);
        expect([user.scopeLimits.user[key], user.scopeLimits.project[key]]).toEqual([tighter, tighter]);
        // A project file (the repository) never reaches the user's hooks, nor the policy's.
        const project = await load([source('project', { [key]: tighter })]);
        expect([project.scopeLimits.user[key], project.scopeLimits.project[key]]).toEqual([
          defaultFor(key),
          tighter,
        ]);
        expect(project.scopeLimits.policy[key]).toBe(defaultFor(key));
        expect([...project.diagnostics, ...user.diagnostics]).toEqual([]);
      });
      it('a project file cannot loosen what the user file tightened', async () => {
        const r = await load([source('user', { [key]: tighter }), source('project', { [key]: looser })]);
        expect([r.scopeLimits.user[key], r.scopeLimits.project[key]]).toEqual([tighter, tighter]);
        expect(r.diagnostics.map((d) => `${d.file} ${d.path}`)).toEqual([`<project> limits.${key}`]);
      });
    }

    it('policy files and the caller may set it either way, and the caller wins', async () => {
      const policy = await load([source('policy', { [key]: looser })]);
      expect(policy.scopeLimits.policy[key]).toBe(looser);
      const caller = await load([source('policy', { [key]: looser })], { [key]: tighter });
      expect(caller.scopeLimits.policy[key]).toBe(tighter);
    });
  });

  it('the user\'s minIsolation reaches project hooks; a project "process" cannot lower it', async () => {
    for (const order of [
      ['user', 'project'],
      ['project', 'user'],
    ] as const) {
      const values = { user: 'namespace', project: 'process' } as const;
      const r = await load(order.map((s) => source(s, { minIsolation: values[s] })));
      expect([
        r.scopeLimits.policy.minIsolation,
        r.scopeLimits.user.minIsolation,
        r.scopeLimits.project.minIsolation,
      ]).toEqual(['process', 'namespace', 'namespace']);
      expect(r.diagnostics.map((d) => `${d.file} ${d.path}`)).toEqual(['<project> limits.minIsolation']);
    }
  });

  it('per-scope floors: a user file may raise project hooks; a project file reaches only its own', async () => {
    const user = await load([source('user', { minIsolation: { project: 'namespace' } })]);
    expect([user.scopeLimits.user.minIsolation, user.scopeLimits.project.minIsolation]).toEqual([
      'process',
      'namespace',
    ]);
    expect(user.diagnostics).toEqual([]);
    const r = await load([source('project', { minIsolation: { policy: 'namespace', user: 'namespace' } })]);
    expect([
      r.scopeLimits.policy.minIsolation,
      r.scopeLimits.user.minIsolation,
      r.scopeLimits.project.minIsolation,
    ]).toEqual(['process', 'process', 'process']);
    expect(r.diagnostics.map((d) => `${d.path}: ${d.message}`)).toEqual([
      "limits.minIsolation.policy: ignored: a project file cannot set the isolation of policy hooks (a file's limits reach its own scope and the less-trusted ones: trusted > policy > user > project)",
      "limits.minIsolation.user: ignored: a project file cannot set the isolation of user hooks (a file's limits reach its own scope and the less-trusted ones: trusted > policy > user > project)",
    ]);
  });

  it('a policy floor for user hooks reaches project hooks too (they are less trusted)', async () => {
    const r = await load([source('policy', { minIsolation: { user: 'namespace', project: 'process' } })]);
    expect([r.scopeLimits.user.minIsolation, r.scopeLimits.project.minIsolation]).toEqual([
      'namespace',
      'namespace',
    ]);
    expect(r.diagnostics.map((d) => d.path)).toEqual(['limits.minIsolation.project']);
  });

  it('a policy floor per scope holds against lower files', async () => {
    const r = await load([
      source('policy', { minIsolation: { user: 'namespace' } }),
      source('user', { minIsolation: { user: 'process' } }),
    ]);
    expect(r.scopeLimits.user.minIsolation).toBe('namespace');
    expect(r.diagnostics.map((d) => d.path)).toEqual(['limits.minIsolation.user']);
  });
});

describe("a tenant's limits", () => {
  it('iterate their rules: a project file only tightens what a policy file set, and sets what it left unset', async () => {
    for (const [key, dir] of Object.entries(TENANT_LIMIT_RULES)) {
      const [set, tighter, looser] = dir === 'cap' ? [10, 5, 20] : [1000, 2000, 500];
      const tenant = (limits: Record<string, number>) => ({ tenants: { acme: { limits } } });
      const r = await loadConfig({
        policy: [
          { kind: 'object', value: tenant({ [key]: set }), scope: 'policy', label: '<policy>', dir: '/tmp' },
        ],
        config: [
          { kind: 'object', value: tenant({ [key]: looser }), scope: 'project', label: '<a>', dir: '/tmp' },
        ],
      });
      expect(r.tenants.get('acme')!.limits, key).toEqual({ [key]: set });
      expect(r.diagnostics.map((d) => d.path)).toEqual([`tenants.acme.limits.${key}`]);
      const t = await loadConfig({
        policy: [
          { kind: 'object', value: tenant({ [key]: set }), scope: 'policy', label: '<policy>', dir: '/tmp' },
        ],
        config: [
          { kind: 'object', value: tenant({ [key]: tighter }), scope: 'project', label: '<a>', dir: '/tmp' },
        ],
      });
      expect(t.tenants.get('acme')!.limits, key).toEqual({ [key]: tighter });
    }
  });
});

describe('custom events', () => {
  it('keep the first definition: a project file cannot redefine what a policy file declared', async () => {
    const gate = (canDeny: boolean) => ({
      events: { Gate: { mode: 'serial', canDeny, honours: ['allow'], toolScoped: true } },
    });
    const r = await loadConfig({
      policy: [{ kind: 'object', value: gate(true), scope: 'policy', label: '<policy>', dir: '/tmp' }],
      config: [{ kind: 'object', value: gate(false), scope: 'project', label: '<project>', dir: '/tmp' }],
    });
    expect(r.catalogue.get('Gate')!.canDeny).toBe(true);
    expect(r.diagnostics.map((d) => `${d.file} ${d.path}: ${d.message}`)).toEqual([
      '<project> events.Gate: "Gate" is already defined by <policy>; this different definition is ignored',
    ]);
  });
});
