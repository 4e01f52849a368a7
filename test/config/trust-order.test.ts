// The two scope orders (docs/security.md): which hook replaces which (override order,
// trusted > policy > project > user) and whose limits reach whose hooks (trust order, trusted >
// policy > user > project). The user's own file protects the user from a repository's hooks: its
// floors and caps reach project hooks, and a project file's never reach user or policy hooks.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { namespaceSupport } from '../../sandbox/command/namespace-profile.js';
import { OVERRIDE_ORDER, reachedBy, TRUST_ORDER } from '../../src/contract/scopes.js';
import { commandOf, hooksOn, input, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';
import { loadConfig } from '../helpers/load-config.js';

const ns = namespaceSupport();
const required = process.env.HOOKWARDEN_REQUIRE_NAMESPACE === '1';

/** A project hook that leaves a marker in the host's /tmp (a namespace sandbox has its own /tmp). */
function markerHook(marker: string) {
  return hooksOn('BeforeTool', [
    { type: 'command', name: 'marker', argv: ['/bin/sh', '-c', `echo x > ${marker}`] },
  ]);
}

describe('scope orders', () => {
  it('are the documented ones', () => {
    expect(OVERRIDE_ORDER).toEqual(['trusted', 'policy', 'project', 'user']);
    expect(TRUST_ORDER).toEqual(['trusted', 'policy', 'user', 'project']);
    expect(reachedBy('user')).toEqual(['user', 'project']);
    expect(reachedBy('project')).toEqual(['project']);
  });

  it("the user file's minIsolation raises project hooks; the project's own file cannot lower it", async () => {
    const dir = tempDir('hw-trust-');
    const user = writeConfig(dir, 'user.json', { limits: { minIsolation: 'namespace' } });
    for (const projectLimits of [undefined, { minIsolation: 'process' }]) {
      const project = writeConfig(dir, 'project.json', {
        ...markerHook(join(dir, 'm')),
        ...(projectLimits === undefined ? {} : { limits: projectLimits }),
      });
      const loaded = await loadConfig({
        config: [
          { kind: 'file', path: user, scope: 'user' },
          { kind: 'file', path: project, scope: 'project' },
        ],
        policy: [],
      });
      expect(loaded.hooks.map((h) => [h.scope, commandOf(h)?.isolation])).toEqual([['project', 'namespace']]);
    }
  });

  it("a project file's caps never reach the user's hooks", async () => {
    const dir = tempDir('hw-trust-');
    const user = writeConfig(
      dir,
      'user.json',
      hooksOn('BeforeTool', [{ type: 'command', name: 'u', argv: ['/bin/true'], timeout: 5 }]),
    );
    const project = writeConfig(dir, 'project.json', {
      limits: { maxDeclaredBudgetMs: 1000, maxHookCalls: 1 },
    });
    const loaded = await loadConfig({
      config: [
        { kind: 'file', path: user, scope: 'user' },
        { kind: 'file', path: project, scope: 'project' },
      ],
      policy: [],
    });
    expect(loaded.scopeLimits.user.maxHookCalls).toBe(128);
    expect(loaded.scopeLimits.project.maxHookCalls).toBe(1);
    expect(loaded.diagnostics).toEqual([]);
  });

  it.runIf(ns.ok || required)(
    'a project command hook runs in the namespace the user file asks for (it cannot touch the host /tmp)',
    async () => {
      const dir = tempDir('hw-trust-');
      const marker = join(dir, 'marker');
      const project = writeConfig(dir, 'project.json', markerHook(marker));
      // Without the user's floor the hook runs in process mode and writes the host's file.
      await withExecutor({ config: [project], root: dir }, (hw) =>
        hw.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: { command: 'ls' } })),
      );
      expect(existsSync(marker)).toBe(true);
      const user = writeConfig(dir, 'user.json', { limits: { minIsolation: 'namespace' } });
      const marker2 = join(dir, 'marker2');
      const project2 = writeConfig(dir, 'project2.json', {
        ...markerHook(marker2),
        limits: { minIsolation: 'process' },
      });
      const result = await withExecutor(
        { config: [{ path: user, scope: 'user' }, project2], root: dir },
        (hw) => hw.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: { command: 'ls' } })),
      );
      // sh cannot create the file in the sandbox's own /tmp (exit 2: a deny with its stderr).
      expect(result.hooks.map((h) => h.scope)).toEqual(['project']);
      expect(result.hooks[0]!.outcome).not.toBe('proceed');
      expect(existsSync(marker2)).toBe(false);
    },
    60_000,
  );
});
