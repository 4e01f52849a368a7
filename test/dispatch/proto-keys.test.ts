// A `__proto__` key of an input is data that hooks see, like any other key (trust invariant 2: a
// verdict covers the input it was given on). JSON.parse makes it an own property; nothing on the way
// to a hook may turn it into a prototype (an assignment `obj.__proto__ = …` would, and drop the key).
import { describe, expect, it } from 'vitest';
import { hooksOn, input, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

const KEYS_JS = {
  type: 'js',
  name: 'keys',
  code: 'export default (i) => ({ decision: "allow", reason: JSON.stringify([Object.keys(i), Object.keys(i.toolInput), ({}).polluted ?? null]) })',
};

describe('__proto__ keys in a HookInput', () => {
  it('reach a JS hook as own keys, and pollute nothing', async () => {
    const raw = JSON.parse(
      '{"toolName":"Bash","__proto__":{"polluted":"top"},"toolInput":{"__proto__":{"polluted":"nested"},"command":"ls"}}',
    );
    await withExecutor({ config: hooksOn('BeforeTool', [KEYS_JS]) }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', { ...input(), ...raw });
      const [top, tool, polluted] = JSON.parse(r.reason!);
      expect(top).toContain('__proto__');
      expect(tool).toEqual(['__proto__', 'command']);
      expect(polluted).toBeNull();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  it('reach a command hook on stdin', async () => {
    const dir = tempDir();
    const config = writeConfig(
      dir,
      'hooks.json',
      hooksOn('BeforeTool', [
        {
          name: 'stdin',
          argv: [
            '/bin/sh',
            '-c',
            'printf \'{"decision":"allow","reason":%s}\' "$(cat | sed \'s/"/\\\\"/g; s/^/"/; s/$/"/\')"',
          ],
        },
      ]),
    );
    const raw = JSON.parse('{"toolName":"Bash","toolInput":{"__proto__":{"x":1},"command":"ls"}}');
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', { ...input(), ...raw });
      expect(r.decision).toBe('allow');
      expect(JSON.parse(r.reason!).toolInput).toEqual(JSON.parse('{"__proto__":{"x":1},"command":"ls"}'));
    });
  });
});
