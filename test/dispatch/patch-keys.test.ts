// FreeCode's `modifiedInput` is a patch over the tool input the hook saw: every key of that input the
// patch does not touch stays, whichever hook type answered. A JS hook's answer crossed back from
// its worker through a copy that dropped `__proto__`, `constructor` and `prototype` at any depth
// and refused nesting past 128 levels: a key of the caller's own input vanished (other hook types
// kept it) and a deep input made the dispatch reject. Found by the invariant-2 property
// (test/properties/final-input.test.ts).
import { describe, expect, it } from 'vitest';
import { hooksOn, input, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

const patchJs = {
  type: 'js',
  name: 'patch',
  code: "export default () => ({ modifiedInput: { extra: 1, __proto__: 'no' } })",
};
const patchCommand = { type: 'command', name: 'patch', argv: ['/bin/echo', '{"modifiedInput":{"extra":1}}'] };

function ownKeysInput(): Record<string, unknown> {
  const toolInput = JSON.parse('{"command":"ls","__proto__":"kept","constructor":{"prototype":"kept too"}}');
  return input({ toolName: 'Bash', toolInput });
}

describe.each([
  ['a JS hook', patchJs],
  ['a command hook', patchCommand],
])('%s answering a FreeCode patch', (_, hook) => {
  it("keeps the caller's own __proto__ and constructor keys", async () => {
    const dir = tempDir('hw-patch-');
    const config = writeConfig(dir, 'hooks.json', hooksOn('BeforeTool', [hook]));
    await withExecutor({ config: [config], root: dir }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', ownKeysInput());
      expect(JSON.stringify(r.mutatedToolInput)).toBe(
        '{"command":"ls","__proto__":"kept","constructor":{"prototype":"kept too"},"extra":1}',
      );
      expect(Object.getPrototypeOf(r.mutatedToolInput)).toBe(null);
    });
  });
});

it('a JS patch over an input nested deeper than 128 levels is applied, not a rejection', async () => {
  const dir = tempDir('hw-patch-');
  const config = writeConfig(dir, 'hooks.json', hooksOn('BeforeTool', [patchJs]));
  const policy = writeConfig(dir, 'policy.json', { limits: { maxInputDepth: 300 } });
  let deep: unknown = 'bottom';
  for (let i = 0; i < 200; i++) deep = { k: deep };
  await withExecutor({ config: [config], policy: [policy], root: dir }, async (hw) => {
    const r = await hw.dispatch('BeforeTool', input({ toolName: 'Bash', toolInput: { deep } }));
    expect(r.hooks.map((h) => h.outcome)).toEqual(['proceed']);
    expect((r.mutatedToolInput as { extra: number }).extra).toBe(1);
  });
});
