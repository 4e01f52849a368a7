// The adapter's fast path says "nothing can run" only where the dispatcher agrees: on every corpus
// config, for every Claude Code event and a range of tools, a "nothing" is a passthrough that ran no
// hook. And it does say "nothing" for the common case (a Bash guard, a Read call).
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nothingCanRun } from '../../src/cli/claude-code/quick-scan.js';
import { CLAUDE_CODE_EVENTS } from '../../src/contract/claude-code-events.js';
import { tempDir, withExecutor, writeConfig } from '../helpers/fixture.js';

const CORPUS = '/work/shared/corpus/claude-code';
const files = readdirSync(CORPUS).filter((f) => f.endsWith('.json'));
const TOOLS = ['Bash', 'Read', 'Write', 'Edit', 'Task', 'AskUserQuestion', 'mcp__memory__create_entities'];

const inputFor = (event: string, tool: string) => ({
  session_id: 's1',
  cwd: '/tmp',
  hook_event_name: event,
  tool_name: tool,
  tool_input: {},
});

describe('the fast path of hookwarden claude-code', () => {
  it.each(files)('%s: "nothing can run" only when the dispatch runs nothing', async (name) => {
    const path = join(tempDir(), name);
    copyFileSync(join(CORPUS, name), path);
    let nothing = 0;
    await withExecutor({ config: [path] }, async (executor) => {
      for (const event of Object.keys(CLAUDE_CODE_EVENTS)) {
        for (const tool of TOOLS) {
          const input = inputFor(event, tool);
          if (!nothingCanRun({ config: [path] }, event, input)) continue;
          nothing++;
          const result = await executor.dispatch(event, input);
          expect({ event, tool, decision: result.decision, hooks: result.hooks }).toEqual({
            event,
            tool,
            decision: 'passthrough',
            hooks: [],
          });
        }
      }
    });
    // Every corpus file leaves most events without hooks.
    expect(nothing).toBeGreaterThan(0);
  });

  it('says nothing can run for a Read call against a Bash guard, and maybe for Bash', () => {
    const cfg = writeConfig(tempDir(), 'settings.json', {
      hooks: { PreToolUse: [{ matcher: 'Bash|Edit', hooks: [{ type: 'command', command: 'guard.sh' }] }] },
    });
    expect(nothingCanRun({ config: [cfg] }, 'PreToolUse', inputFor('PreToolUse', 'Read'))).toBe(true);
    expect(nothingCanRun({ config: [cfg] }, 'PreToolUse', inputFor('PreToolUse', 'Bash'))).toBe(false);
    // The same event under another name, and events with no hooks at all.
    expect(nothingCanRun({ config: [cfg] }, 'Stop', inputFor('Stop', 'Bash'))).toBe(true);
  });

  it('leaves to the dispatcher what it does not fully understand', () => {
    const dir = tempDir();
    const plain = writeConfig(dir, 'plain.json', { hooks: {} });
    const cases: [string, Parameters<typeof nothingCanRun>[0]][] = [
      ['a policy file', { config: [plain], policy: [plain] }],
      ['--strict', { config: [plain], strict: true }],
      ['--audit', { config: [plain], audit: join(dir, 'a.jsonl') }],
      ['a JSONC file', { config: [writeConfig(dir, 'c.json', '// c\n{"hooks": {}}')] }],
      ['a missing file', { config: [join(dir, 'missing.json')] }],
      ['a file with limits', { config: [writeConfig(dir, 'hw.json', { hooks: {}, limits: {} })] }],
      ['a file that declares events', { config: [writeConfig(dir, 'ev.json', { hooks: {}, events: {} })] }],
      ['a FreeCode file', { config: [writeConfig(dir, 'fc.json', { dialect: 'freecode', hooks: {} })] }],
      [
        'a matcher that is not a string',
        {
          config: [
            writeConfig(dir, 'obj.json', {
              hooks: {
                PreToolUse: [{ matcher: { tool: 'Bash' }, hooks: [{ type: 'command', command: 'x' }] }],
              },
            }),
          ],
        },
      ],
      [
        'a matcher on a non-tool event',
        {
          config: [
            writeConfig(dir, 'ss.json', {
              hooks: { SessionStart: [{ matcher: 'resume', hooks: [{ type: 'command', command: 'x' }] }] },
            }),
          ],
        },
      ],
    ];
    for (const [what, flags] of cases) {
      const event = what === 'a matcher on a non-tool event' ? 'SessionStart' : 'PreToolUse';
      expect(nothingCanRun(flags, event, inputFor(event, 'Read')), what).toBe(false);
    }
    expect(nothingCanRun({ config: [plain] }, 'PreToolUse', inputFor('PreToolUse', 'Read'))).toBe(true);
  });
});
