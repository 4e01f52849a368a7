// On a serial deny-capable event the trusted and policy hooks settle their own rewrites first, as
// they would with no other file loaded, before a less-trusted hook sees the input. Found by the
// invariant-1 property (fuzz seed 20261203, case 65666): two guards undoing each other's rewrites
// make the policy alone deny at maxHookCalls; a lower hook's rewrite, run before the policy's
// re-check, ended that round and turned the deny into a passthrough.
import { describe, expect, it } from 'vitest';
import { input, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

const js = (name: string, body: string) => ({ name, type: 'js', code: `export default (i) => ${body}` });
const group = (hooks: unknown[], extra: Record<string, unknown> = {}) => ({
  ...extra,
  hooks: { BeforeTool: [{ hooks }] },
});
// Two policy hooks that undo each other: one adds `n`, the other strips it from an "rm" command.
const addN = js('add-n', "'n' in i.toolInput ? undefined : { mutatedToolInput: { ...i.toolInput, n: [] } }");
const stripN = js(
  'strip-n',
  "String(i.toolInput.command).includes('rm') && 'n' in i.toolInput ? { mutatedToolInput: { command: i.toolInput.command } } : undefined",
);
const policy = group([addN, stripN], { limits: { maxHookCalls: 8 } });
// A lower hook that rewrites "rm" into something neither policy hook minds.
const retarget = js(
  'retarget',
  "i.toolInput.command === 'rm' ? { mutatedToolInput: { command: 'ls safe' } } : undefined",
);
const rm = input({ toolName: 'Bash', toolInput: { command: 'rm' } });

describe('the policy settles before a lower hook sees the input', () => {
  it('alone: the two policy hooks loop to maxHookCalls and the dispatch denies', async () => {
    await withExecutor({ policy }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', rm);
      expect(r.decision).toBe('deny');
      expect(r.hooks.some((h) => h.error?.code === 'max_hook_calls')).toBe(true);
    });
  });

  for (const scope of ['project', 'user'] as const) {
    it(`with a ${scope} rewrite: still the policy's deny, and the ${scope} hook never runs`, async () => {
      const path = writeConfig(tempDir('hw-settles-'), `${scope}.json`, group([retarget]));
      await withExecutor({ policy, config: [{ path, scope }] }, async (hw) => {
        const r = await hw.dispatch('BeforeTool', rm);
        expect(r.decision).toBe('deny');
        expect(r.hooks.some((h) => h.error?.code === 'max_hook_calls')).toBe(true);
        expect(r.hooks.filter((h) => h.id === 'retarget').map((h) => h.outcome)).toEqual(['not-run']);
      });
    });
  }

  it('with a project file that makes BeforeTool parallel and rewrites: still a deny', async () => {
    const project = { ...group([retarget]), events: { BeforeTool: { mode: 'parallel' } } };
    await withExecutor({ policy, config: [project] }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', rm);
      expect(r.decision).toBe('deny');
    });
  });

  it("parallel: a lower rewrite folded over the policy's own rewrite does not hide it from the policy's guards", async () => {
    // Found by the invariant-1 property (fuzz seed 20261203, case 97083).
    const sanitise = js(
      'sanitise',
      "i.toolInput.command === 'rm' ? { mutatedToolInput: { command: 'ls safe' } } : undefined",
    );
    const noSafe = js(
      'no-safe',
      "i.toolInput.command === 'ls safe' ? { decision: 'deny', reason: 'no' } : undefined",
    );
    const toX = js(
      'to-x',
      "i.toolInput.command === 'x' ? undefined : { mutatedToolInput: { command: 'x' } }",
    );
    const parallel = { events: { BeforeTool: { mode: 'parallel' } } };
    const alone = await withExecutor({ policy: group([sanitise, noSafe], parallel) }, (hw) =>
      hw.dispatch('BeforeTool', rm),
    );
    expect(alone.decision).toBe('deny');
    const path = writeConfig(tempDir('hw-settles-'), 'user.json', group([toX]));
    await withExecutor(
      { policy: group([sanitise, noSafe], parallel), config: [{ path, scope: 'user' }] },
      async (hw) => {
        const r = await hw.dispatch('BeforeTool', rm);
        expect(r).toMatchObject({ decision: 'deny', decidedBy: 'no-safe' });
        expect(r.hooks.filter((h) => h.id === 'to-x').map((h) => h.outcome)).toEqual(['not-run']);
      },
    );
  });

  it('a policy that settles: the lower rewrite runs, and every policy hook sees its result', async () => {
    await withExecutor({ policy: group([addN]), config: group([retarget]) }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', rm);
      expect(r.hooks.map((h) => `${h.id}${h.recheck ? '*' : ''}`)).toEqual(['add-n', 'retarget', 'add-n*']);
      expect(r.mutatedToolInput).toEqual({ command: 'ls safe', n: [] });
    });
  });
});
