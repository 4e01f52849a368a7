import { describe, expect, it } from 'vitest';
import { parseHookOutput } from '../../src/contract/parse-output.js';

const parse = (raw: unknown, event = 'BeforeTool') => {
  const r = parseHookOutput(raw, event);
  if (!r.ok) throw new Error(r.message);
  return r;
};

describe("Claude Code's output shape", () => {
  it('maps hookSpecificOutput.permissionDecision, reason, updatedInput and additionalContext', () => {
    const r = parse({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'ask',
        permissionDecisionReason: 'check it',
        updatedInput: { command: 'ls' },
        additionalContext: 'ctx',
      },
    });
    expect({ ...r.output }).toEqual({
      decision: 'ask',
      reason: 'check it',
      mutatedToolInput: { command: 'ls' },
      additionalContext: 'ctx',
    });
  });

  it('maps decision "block" to deny, and "approve" to allow', () => {
    expect(parse({ decision: 'block', reason: 'nope' }).output).toMatchObject({
      decision: 'deny',
      reason: 'nope',
    });
    expect(parse({ decision: 'approve' }).output).toMatchObject({ decision: 'allow' });
  });

  it('reads decision "block" on Stop (AfterTurn) as "keep working" and on PostToolUse as feedback', () => {
    expect({ ...parse({ decision: 'block', reason: 'tests fail' }, 'AfterTurn').output }).toEqual({
      continueWork: { reason: 'tests fail' },
    });
    expect({ ...parse({ decision: 'block', reason: 'lint errors' }, 'AfterTool').output }).toEqual({
      additionalContext: 'lint errors',
    });
  });

  it('maps continue:false with stopReason to a deny', () => {
    expect(parse({ continue: false, stopReason: 'halt' }).output).toMatchObject({
      decision: 'deny',
      reason: 'halt',
    });
  });

  it('maps the PermissionRequest decision object', () => {
    const r = parse(
      {
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          decision: { behavior: 'allow', message: 'fine' },
        },
      },
      'ApprovalRequest',
    );
    expect(r.output).toMatchObject({ decision: 'allow', reason: 'fine' });
  });

  it('lists display-only fields as ignored', () => {
    const r = parse({
      decision: 'approve',
      suppressOutput: true,
      systemMessage: 'hi',
      hookSpecificOutput: { other: 1 },
    });
    expect(r.unknownFields).toEqual(['suppressOutput', 'systemMessage', 'hookSpecificOutput.other']);
  });
});
