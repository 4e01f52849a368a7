// Trust invariant 3 for `if` filters, as for matchers: a filter hookwarden cannot evaluate (a regex
// with lookaround or a backreference, one that is not a regex, flags it does not read, a filter not
// of the `Tool(pattern)` shape) counts as a match. It used to be a load error that skipped the hook,
// so a user's guard written with `(?!…)` silently never ran: found by the invariant-3 property
// (test/properties/run-the-guard.test.ts). In a policy file it is still a policy failure.
import { describe, expect, it } from 'vitest';
import { hooksOn, input, tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

const FILTERS = [
  'Bash(/^(?!ls)/)',
  'Bash(/(rm)\\1/)',
  'Bash(/(?<=x)y/)',
  'Bash(/(/)',
  'Bash(/rm/g)',
  'Bash(/a{1,5000}/)',
  'Deploy(/(?=x)/)',
];
const deny = { type: 'command', name: 'guard', command: 'echo "no $HOOK_TOOL_NAME" >&2; exit 2' };
const call = (toolName: string) => input({ toolName, toolInput: { command: 'rm -rf /home' } });

describe.each(FILTERS)('the filter %j', (filter) => {
  const tool = filter.slice(0, filter.indexOf('('));

  it('in a project or user file: the hook runs for every call of its tool, with a warning', async () => {
    const dir = tempDir('hw-unev-if-');
    const project = writeConfig(dir, 'project.json', hooksOn('PreToolUse', [{ ...deny, if: filter }]));
    for (const config of [project, { path: project, scope: 'user' as const }]) {
      const { result, other, warnings } = await withExecutor(
        { config: [config], root: dir },
        async (hw, warnings) => ({
          result: await hw.dispatch('BeforeTool', call(tool)),
          other: await hw.dispatch('BeforeTool', call('WebFetch')),
          warnings,
        }),
      );
      expect(result).toMatchObject({ decision: 'deny', reason: `no ${tool}`, decidedBy: 'guard' });
      expect(other.decision).toBe('passthrough');
      expect(warnings).toEqual([
        expect.stringMatching(/^hooks\.PreToolUse\[0\]\.hooks\[0\]\.if: .*the hook runs for every call/),
      ]);
    }
  });

  it('in a policy file: a policy failure (deny-capable events deny), and the hook runs on the others', async () => {
    const dir = tempDir('hw-unev-if-');
    const observe = {
      type: 'js',
      name: 'observe',
      if: filter,
      code: "export default () => ({ additionalContext: 'seen' })",
    };
    const policy = writeConfig(dir, 'policy.json', {
      hooks: { PreToolUse: [{ hooks: [{ ...deny, if: filter }] }], PostToolUse: [{ hooks: [observe] }] },
    });
    await withExecutor({ policy: [policy], root: dir }, async (hw) => {
      const r = await hw.dispatch('BeforeTool', call(tool));
      expect(r).toMatchObject({ decision: 'deny', decidedBy: 'policy' });
      expect(r.reason).toContain('hooks.PreToolUse[0].hooks[0].if');
      const after = await hw.dispatch('AfterTool', { ...call(tool), ok: true, toolResult: 'x' });
      expect(after.hooks.map((h) => [h.id, h.outcome])).toEqual([['observe', 'proceed']]);
      expect(after.additionalContext).toBe('seen');
    });
  });

  it('in register(): refused (invalid_options), as an unevaluable matcher is', async () => {
    await withExecutor({ root: tempDir('hw-unev-if-') }, async (hw) => {
      expect(() =>
        hw.register({ event: 'BeforeTool', name: 't', if: filter, handler: () => undefined }),
      ).toThrow(/register: if: /);
    });
  });
});

it('a filter that is not of the Tool(pattern) shape runs its hook for every call', async () => {
  const dir = tempDir('hw-unev-if-');
  const project = writeConfig(dir, 'project.json', hooksOn('PreToolUse', [{ ...deny, if: 'Bash(rm' }]));
  await withExecutor({ config: [project], root: dir }, async (hw, warnings) => {
    expect((await hw.dispatch('BeforeTool', call('Read'))).decision).toBe('deny');
    expect(warnings.join('\n')).toContain('expected "Tool" or "Tool(pattern)"');
  });
});
