import { describe, expect, it } from 'vitest';
import { withCamelCaseNames } from '../../src/contract/input-names.js';
import { input, printing, withExecutor } from '../helpers/fixture.js';

describe("Claude Code's snake_case input", () => {
  it('gets camelCase twins, keeps every field as sent, and never overwrites one', () => {
    const sent = {
      session_id: 's',
      transcript_path: '/t.jsonl',
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      tool_response: { stdout: '' },
      tool_use_id: 'toolu_1',
      notification_type: 'idle_prompt',
      agent_type: 'Explore',
      toolName: 'Read',
      cwd: '/w',
    };
    expect(withCamelCaseNames(sent, 'BeforeTool')).toEqual({
      ...sent,
      sessionId: 's',
      transcriptPath: '/t.jsonl',
      permissionMode: 'default',
      hookEventName: 'PreToolUse',
      toolInput: { command: 'ls' },
      toolResult: { stdout: '' },
      toolUseId: 'toolu_1',
      notificationType: 'idle_prompt',
      agentType: 'Explore',
    });
    const camel = { sessionId: 's', toolName: 'Bash' };
    expect(withCamelCaseNames(camel, 'BeforeTool')).toBe(camel);
    expect(withCamelCaseNames({ trigger: 'auto' }, 'BeforeCompact')).toEqual({
      trigger: 'auto',
      compaction: { trigger: 'auto' },
    });
  });

  it('is matched and validated like camelCase input by dispatch', async () => {
    const config = {
      hooks: { PreToolUse: [{ matcher: 'Bash', if: 'Bash(rm *)', hooks: [printing({ decision: 'deny' })] }] },
    };
    await withExecutor({ config }, async (hw) => {
      const r = await hw.dispatch('PreToolUse', {
        session_id: 'abc',
        cwd: '/tmp',
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'rm -rf build' },
      });
      expect(r.decision).toBe('deny');
      const ok = await hw.dispatch('PreToolUse', input({ tool_name: 'Bash', tool_input: { command: 'ls' } }));
      expect(ok.decision).toBe('passthrough');
    });
  });
});
