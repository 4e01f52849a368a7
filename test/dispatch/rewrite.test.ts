// Trust invariant 2: a verdict covers the input it was given on. A rewrite drops the approvals given
// before it; hooks after it are matched against the rewritten input; every guard of the rewrite (all
// trusted and policy hooks, and hooks whose scope outranks the rewriter's) runs again on the final
// input, round after round, within limits.maxHookCalls.
import { describe, expect, it } from 'vitest';
import { input, printing, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

const bash = (command: string) => input({ toolName: 'Bash', toolInput: { command } });
const group = (hooks: unknown[], extra: Record<string, unknown> = {}) => ({
  hooks: { BeforeTool: [{ ...extra, hooks }] },
});
/** A JS guard: allows only the exact command, denies anything else (naming it). */
const allowOnly = (name: string, command: string) => ({
  name,
  type: 'js',
  code: `export default (i) => i.toolInput.command === ${JSON.stringify(command)} ? { decision: 'allow', reason: '${name} ok' } : { decision: 'deny', reason: '${name} refuses ' + i.toolInput.command }`,
});
const rewriteTo = (name: string, command: string, extra: Record<string, unknown> = {}) =>
  printing({ mutatedToolInput: { command }, ...extra }, { name });

describe('a rewrite after an approval', () => {
  it('re-runs the policy guard on the rewritten input; its first record stays, the re-run is marked', async () => {
    await withExecutor(
      {
        policy: group([allowOnly('guard', 'ls -la')]),
        config: group([rewriteTo('add-flag', 'ls -la')]),
      },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', bash('ls'));
        expect(r).toMatchObject({ decision: 'deny', reason: 'guard refuses ls', decidedBy: 'guard' });
        // Denied on the first look: no rewrite happens after a deny.
        expect(r.hooks.map((h) => [h.id, h.outcome])).toEqual([
          ['guard', 'deny'],
          ['add-flag', 'not-run'],
        ]);
      },
    );
    await withExecutor(
      {
        policy: group([allowOnly('guard', 'ls')]),
        config: group([rewriteTo('add-flag', 'ls -la')]),
      },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', bash('ls'));
        expect(r).toMatchObject({ decision: 'deny', reason: 'guard refuses ls -la', decidedBy: 'guard' });
        expect(r.hooks.map((h) => [h.id, h.outcome, h.recheck])).toEqual([
          ['guard', 'allow', undefined],
          ['add-flag', 'proceed', undefined],
          ['guard', 'deny', true],
        ]);
      },
    );
  });

  it('keeps an approval that the guards give again on the final input', async () => {
    const guard = {
      name: 'no-rm',
      type: 'js',
      code: "export default (i) => /rm /.test(i.toolInput.command) ? { decision: 'deny', reason: 'rm' } : { decision: 'allow', reason: 'seen ' + i.toolInput.command }",
    };
    await withExecutor(
      { policy: group([guard]), config: group([rewriteTo('dry-run', 'make --dry-run')]) },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', bash('make'));
        expect(r).toMatchObject({
          decision: 'allow',
          reason: 'seen make --dry-run',
          decidedBy: 'no-rm',
          mutatedToolInput: { command: 'make --dry-run' },
        });
      },
    );
  });

  it('drops an approval given before the rewrite by a hook that is not its guard', async () => {
    // Same scope: the approving project hook is not re-run, and its approval no longer counts.
    await withExecutor(
      {
        config: group([printing({ decision: 'allow' }, { name: 'approve' }), rewriteTo('rewrite', 'ls /')]),
      },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', bash('ls'));
        expect(r.decision).toBe('passthrough');
        expect(r.mutatedToolInput).toEqual({ command: 'ls /' });
        expect(r.hooks.map((h) => h.id)).toEqual(['approve', 'rewrite']);
      },
    );
  });

  it("stands for the rewriting hook's own approval when no guard outranks it", async () => {
    await withExecutor(
      { config: group([rewriteTo('rewrite', 'ls /', { decision: 'allow' })]) },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', bash('ls'));
        expect(r).toMatchObject({ decision: 'allow', decidedBy: 'rewrite' });
      },
    );
  });

  it('re-runs a project guard when a user hook rewrites, but not a user hook of the same scope', async () => {
    const dir = tempDir();
    const user = writeConfig(
      dir,
      'user.json',
      group([printing({ decision: 'allow' }, { name: 'user-ok' }), rewriteTo('user-rewrite', 'rm -rf /')]),
    );
    await withExecutor(
      { config: [{ path: user, scope: 'user' }, group([allowOnly('project-guard', 'ls')])] },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', bash('ls'));
        expect(r).toMatchObject({ decision: 'deny', reason: 'project-guard refuses rm -rf /' });
        expect(r.hooks.map((h) => `${h.id}${h.recheck ? '*' : ''}`)).toEqual([
          'project-guard',
          'user-ok',
          'user-rewrite',
          'project-guard*',
        ]);
      },
    );
  });

  it('does not count writing back the same value as a rewrite', async () => {
    await withExecutor(
      { policy: group([allowOnly('guard', 'ls')]), config: group([rewriteTo('same', 'ls')]) },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', bash('ls'));
        expect(r).toMatchObject({ decision: 'allow', decidedBy: 'guard' });
        expect(r.hooks).toHaveLength(2);
      },
    );
  });

  it('runs another round when a guard rewrites while re-checking', async () => {
    const safe = {
      name: 'make-safe',
      type: 'js',
      code: "export default (i) => i.toolInput.command.endsWith(' --safe') ? undefined : { mutatedToolInput: { command: i.toolInput.command + ' --safe' } }",
    };
    const check = {
      name: 'check',
      type: 'js',
      code: "export default (i) => ({ decision: 'allow', reason: 'checked ' + i.toolInput.command })",
    };
    await withExecutor(
      // check, then make-safe (policy), then a project rewrite: the final input is "deploy --safe".
      { policy: group([check, safe]), config: group([rewriteTo('retarget', 'deploy')]) },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', bash('build'));
        expect(r).toMatchObject({
          decision: 'allow',
          reason: 'checked deploy --safe',
          mutatedToolInput: { command: 'deploy --safe' },
        });
        // The policy settles make-safe's rewrite first (check*), as it would with no project file,
        // before the project's retarget sees the input; then retarget's rewrite is re-checked.
        expect(r.hooks.map((h) => `${h.id}${h.recheck ? '*' : ''}`)).toEqual([
          'check',
          'make-safe',
          'check*',
          'retarget',
          'check*',
          'make-safe*',
          'check*',
        ]);
      },
    );
  });

  it('re-runs the guards after a guard that rewrites while re-checking, not only those before it', async () => {
    // Found by the invariant-2 property (test/properties/final-input.test.ts): after a re-check
    // rewrite, only the guards before the rewriter ran again, so no-rm never saw "rm -rf /".
    const js = (name: string, body: string) => ({ name, type: 'js', code: `export default (i) => ${body}` });
    const arm = js(
      'arm',
      "i.toolInput.command === 'b' ? { mutatedToolInput: { command: 'rm -rf /' } } : undefined",
    );
    const retarget = js(
      'retarget',
      "i.toolInput.command === 'a' ? { mutatedToolInput: { command: 'b' } } : undefined",
    );
    const noRm = js(
      'no-rm',
      "/rm/.test(i.toolInput.command) ? { decision: 'deny', reason: 'no rm' } : { decision: 'allow' }",
    );
    await withExecutor({ policy: group([arm, retarget, noRm]) }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', bash('a'));
      expect(r).toMatchObject({ decision: 'deny', reason: 'no rm', decidedBy: 'no-rm' });
      expect(r.hooks.map((h) => `${h.id}${h.recheck ? '*' : ''}:${h.outcome}`)).toEqual([
        'arm:proceed',
        'retarget:proceed',
        'no-rm:allow',
        'arm*:proceed',
        'retarget*:proceed',
        'no-rm*:deny',
      ]);
    });
  });

  it('denies when two guards keep undoing each other, once maxHookCalls leaves no call to re-check', async () => {
    const js = (name: string, body: string) => ({ name, type: 'js', code: `export default (i) => ${body}` });
    const toA = js(
      'to-a',
      "i.toolInput.command === 'a' ? undefined : { mutatedToolInput: { command: 'a' } }",
    );
    const toB = js(
      'to-b',
      "i.toolInput.command === 'b' ? undefined : { mutatedToolInput: { command: 'b' } }",
    );
    const watch = js('watch', "({ decision: 'allow' })");
    await withExecutor(
      { policy: { ...group([toA, toB, watch]), limits: { maxHookCalls: 12 } } },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', bash('x'));
        expect(r.decision).toBe('deny');
        expect(r.hooks.filter((h) => h.outcome !== 'not-run')).toHaveLength(12);
        expect(r.hooks.at(-1)).toMatchObject({ outcome: 'not-run', error: { code: 'max_hook_calls' } });
      },
    );
  });

  it('denies when limits.maxHookCalls leaves no call to re-check a guard', async () => {
    await withExecutor(
      {
        policy: { ...group([allowOnly('guard', 'ls')]), limits: { maxHookCalls: 2 } },
        config: group([rewriteTo('rewrite', 'rm -rf ~')]),
      },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', bash('ls'));
        expect(r.decision).toBe('deny');
        expect(r.hooks.at(-1)).toMatchObject({
          id: 'guard',
          outcome: 'not-run',
          recheck: true,
          error: { code: 'max_hook_calls' },
        });
      },
    );
  });

  it('matches hooks after a rewrite against the rewritten input, also inside a run of JS hooks', async () => {
    const rewrite = {
      name: 'js-rewrite',
      type: 'js',
      code: "export default () => ({ mutatedToolInput: { command: 'rm -rf build' } })",
    };
    const guard = {
      name: 'js-no-rm',
      type: 'js',
      code: "export default () => ({ decision: 'deny', reason: 'no rm' })",
    };
    await withExecutor(
      {
        config: {
          hooks: {
            BeforeTool: [{ hooks: [rewrite] }, { if: 'Bash(rm *)', hooks: [guard] }],
          },
        },
      },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', bash('ls'));
        expect(r).toMatchObject({ decision: 'deny', reason: 'no rm', decidedBy: 'js-no-rm' });
      },
    );
  });

  it('re-checks the guards of a parallel deny-capable event on the rewritten input', async () => {
    const events = {
      Gate: { mode: 'parallel', canDeny: true, honours: ['allow', 'mutatedToolInput'], toolScoped: true },
    };
    await withExecutor(
      {
        policy: {
          events,
          hooks: {
            Gate: [
              { if: 'Bash(rm *)', hooks: [printing({ decision: 'deny', reason: 'no rm' }, { name: 'g' })] },
            ],
          },
        },
        config: { events, hooks: { Gate: [{ hooks: [rewriteTo('w', 'rm -rf /', { decision: 'allow' })] }] } },
      },
      async (hw) => {
        const r = await hw.dispatch('Gate', bash('ls'));
        expect(r).toMatchObject({ decision: 'deny', reason: 'no rm' });
        expect(r.hooks.at(-1)).toMatchObject({ id: 'g', recheck: true });
      },
    );
  });
});
