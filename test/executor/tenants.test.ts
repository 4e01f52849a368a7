// Tenants: per-tenant hook sets with the policy scope applied to all, run-time tenants, id
// validation, per-tenant limits (queue_full), fair order under a flood, separate scratch dirs.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { internalsOf } from '../../src/executor/internals.js';
import { createExecutor, type Executor, type HookStartedEvent } from '../../src/index.js';
import { waitingPair } from '../helpers/fifo.js';
import { input, printing, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

const ctx = (text: string, extra: Record<string, unknown> = {}) =>
  printing({ additionalContext: text }, extra);

/**
 * Tenant "flood" dispatches `floods` hooks at once, tenant "calm" one more once all of the flood's are
 * on `lane` (queued or running); returns the tenants in the order their hooks started.
 */
async function startOrder(
  hw: Executor,
  floods: number,
  lane: 'command' | 'js',
): Promise<(string | undefined)[]> {
  const started: HookStartedEvent[] = [];
  const off = hw.on('hook.started', (e) => started.push(e));
  const ev = input({ toolName: 'Bash' });
  const flood = Array.from({ length: floods }, () => hw.dispatch('BeforeTool', ev, { tenant: 'flood' }));
  const pool = internalsOf(hw).pool;
  const onLane = () => {
    const t = pool[lane].load().tenants.find((x) => x.tenant === 'flood');
    return (t?.queued ?? 0) + (t?.running ?? 0) + started.length;
  };
  while (onLane() < floods) await new Promise((r) => setImmediate(r));
  const calm = hw.dispatch('BeforeTool', ev, { tenant: 'calm' });
  await Promise.all([...flood, calm]);
  off();
  return started.map((e) => e.tenant);
}

describe('tenants', () => {
  const dir = tempDir();
  const policy = writeConfig(dir, 'policy.json', {
    hooks: { BeforeTool: [{ hooks: [ctx('policy', { name: 'p' })] }] },
  });
  const config = {
    hooks: { BeforeTool: [{ hooks: [ctx('shared-project', { name: 'shared' })] }] },
    tenants: {
      acme: { hooks: { BeforeTool: [{ hooks: [ctx('acme', { name: 'a' })] }] } },
      globex: { hooks: { BeforeTool: [{ hooks: [ctx('globex', { name: 'g' })] }] } },
    },
  };

  it('run the policy hooks plus their own only', async () => {
    await withExecutor({ config, policy }, async (hw) => {
      const ev = input({ toolName: 'Bash' });
      expect((await hw.dispatch('BeforeTool', ev)).additionalContext).toBe('policy\nshared-project');
      expect((await hw.dispatch('BeforeTool', ev, { tenant: 'acme' })).additionalContext).toBe(
        'policy\nacme',
      );
      expect((await hw.dispatch('BeforeTool', ev, { tenant: 'globex' })).additionalContext).toBe(
        'policy\nglobex',
      );
      // A tenant without hooks of its own still gets the policy scope.
      expect((await hw.dispatch('BeforeTool', ev, { tenant: 'initech' })).additionalContext).toBe('policy');
    });
  });

  it('can be added, replaced and removed at run time', async () => {
    await withExecutor({ config, policy }, async (hw) => {
      const ev = input({ toolName: 'Bash' });
      await hw.setTenant('initech', {
        config: { hooks: { BeforeTool: [{ hooks: [ctx('initech', { name: 'i' })] }] } },
      });
      expect((await hw.dispatch('BeforeTool', ev, { tenant: 'initech' })).additionalContext).toBe(
        'policy\ninitech',
      );
      // Replacing a config file's tenant; a hook named like a policy hook is dropped (policy wins).
      await hw.setTenant('acme', {
        config: {
          hooks: { BeforeTool: [{ hooks: [ctx('acme-v2', { name: 'a' }), ctx('sneaky', { name: 'p' })] }] },
        },
      });
      expect((await hw.dispatch('BeforeTool', ev, { tenant: 'acme' })).additionalContext).toBe(
        'policy\nacme-v2',
      );
      expect(hw.tenants).toEqual(['acme', 'globex', 'initech']);
      expect(hw.removeTenant('initech')).toBe(true);
      expect(hw.tenants).toEqual(['acme', 'globex']);
      expect((await hw.dispatch('BeforeTool', ev, { tenant: 'initech' })).additionalContext).toBe('policy');
    });
  });

  it('have their ids validated before use', async () => {
    const warnings: string[] = [];
    const hw = await createExecutor({
      config: { tenants: { '../etc': { hooks: {} }, ok: {} } },
      onWarning: (d) => warnings.push(`${d.path}: ${d.message}`),
    });
    try {
      expect(warnings.join('\n')).toMatch(/tenants\["\.\.\/etc"\]: expected a tenant id/);
      for (const bad of ['../x', 'a/b', '', '.hidden', 'x'.repeat(65)]) {
        await expect(hw.dispatch('BeforeTool', input(), { tenant: bad })).rejects.toMatchObject({
          code: 'invalid_input',
          message: expect.stringMatching(/^tenant: /),
        });
        await expect(hw.setTenant(bad, {})).rejects.toMatchObject({ code: 'invalid_options' });
      }
      await expect(hw.setTenant('ok', { limits: { maxQueued: -1 } })).rejects.toThrow(
        /limits.maxQueued: expected a positive integer, got -1/,
      );
    } finally {
      await hw.close();
    }
  });

  it('get queue_full past maxQueued, which denies whatever onError says', async () => {
    for (const onError of ['skip', 'deny']) {
      // The hook that runs holds its slot until the test releases it: one runs, one waits, and the
      // third finds the queue full, however slowly the machine starts the first.
      const held = waitingPair(tempDir(), {});
      const config = {
        limits: { maxConcurrentCommands: 1 },
        tenants: {
          busy: {
            limits: { maxQueued: 1 },
            hooks: { BeforeTool: [{ hooks: [{ name: 'held', ...held.hook, onError }] }] },
          },
        },
      };
      await withExecutor({ config }, async (hw) => {
        const dispatches = [0, 1, 2].map(() =>
          hw.dispatch('BeforeTool', input({ toolName: 'Bash' }), { tenant: 'busy' }),
        );
        await held.lines.next();
        const first = await Promise.race(dispatches);
        expect(first.hooks[0]!.error?.code).toBe('queue_full');
        held.feed.send();
        await held.lines.next();
        held.feed.send();
        const results = await Promise.all(dispatches);
        const full = results.filter((r) => r.hooks[0]!.error?.code === 'queue_full');
        expect(full).toHaveLength(1);
        // Refused, the hook saw nothing: deny on BeforeTool whatever its onError (never passthrough).
        expect(full[0]!.decision).toBe('deny');
        expect(results.filter((r) => r.hooks[0]!.outcome === 'proceed')).toHaveLength(2);
      });
      held.lines.close();
      held.feed.close();
    }
  });

  it('are scheduled fairly: a tenant flooding the lane does not starve another', async () => {
    const slow = { hooks: { BeforeTool: [{ hooks: [{ name: 'slow', command: 'sleep 0.05' }] }] } };
    await withExecutor(
      { config: { limits: { maxConcurrentCommands: 1 }, tenants: { flood: slow, calm: slow } } },
      async (hw) => {
        const order = await startOrder(hw, 8, 'command');
        expect(order).toHaveLength(9);
        // FIFO would start calm 9th; the rotation starts it right after the flood's running hook.
        expect(order.indexOf('calm')).toBeLessThanOrEqual(2);
      },
    );
  });

  it('are scheduled fairly on the QuickJS lane too, slow hooks never batched', async () => {
    const busy =
      'export default () => { let x = 0; for (let i = 0; i < 2e6; i++) x += i; return { additionalContext: String(x > 0) } }';
    const slow = { hooks: { BeforeTool: [{ hooks: [{ name: 'busy', type: 'js', code: busy }] }] } };
    await withExecutor(
      { config: { limits: { jsThreads: 1 }, tenants: { flood: slow, calm: slow } } },
      async (hw) => {
        // Learn that this hook is slow.
        await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }), { tenant: 'calm' });
        const order = await startOrder(hw, 10, 'js');
        expect(order).toHaveLength(11);
        expect(order.indexOf('calm')).toBeLessThanOrEqual(2);
      },
    );
  });

  it('never share a scratch directory', async () => {
    const hook = {
      hooks: {
        BeforeTool: [{ hooks: [{ name: 'home', command: 'printf \'{"additionalContext":"%s"}\' "$HOME"' }] }],
      },
    };
    await withExecutor({ config: { tenants: { acme: hook, globex: hook } } }, async (hw) => {
      const a = (await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }), { tenant: 'acme' }))
        .additionalContext!;
      const g = (await hw.dispatch('BeforeTool', input({ toolName: 'Bash' }), { tenant: 'globex' }))
        .additionalContext!;
      expect(a).toMatch(/\/t-acme\/h-[0-9a-f]{24}$/);
      expect(g).toMatch(/\/t-globex\/h-[0-9a-f]{24}$/);
    });
  });

  it('load from files with their own packs and limits', async () => {
    const d = tempDir();
    const file = writeConfig(d, 'tenants.json', {
      tenants: { acme: { limits: { weight: 2 }, hooks: { SessionStart: [{ hooks: [ctx('from-file')] }] } } },
    });
    await withExecutor({ config: file }, async (hw) => {
      expect((await hw.dispatch('SessionStart', input(), { tenant: 'acme' })).additionalContext).toBe(
        'from-file',
      );
      expect((await hw.dispatch('SessionStart', input())).hooks).toEqual([]);
    });
    expect(join(d, 'tenants.json')).toBe(file);
  });
});

describe('tenant hooks', () => {
  it('run at user scope whichever file declares them', async () => {
    const tenants = {
      tenants: { acme: { hooks: { SessionStart: [{ hooks: [{ name: 't', command: 'true' }] }] } } },
    };
    for (const key of ['config', 'policy'] as const) {
      await withExecutor({ [key]: tenants }, async (hw) => {
        const r = await hw.dispatch('SessionStart', input(), { tenant: 'acme' });
        expect(
          r.hooks.map((h) => [h.id, h.scope]),
          key,
        ).toEqual([['t', 'user']]);
      });
    }
  });
});
