import { describe, expect, it } from 'vitest';
import { type AnswerContext, parseHookOutput } from '../../src/contract/parse-output.js';

const parse = (raw: unknown, event = 'BeforeTool', context: AnswerContext = {}) => {
  const r = parseHookOutput(raw, event, context);
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

  it('carries continue:false and stopReason as fields (the fold stops the chain and denies where it can)', () => {
    const r = parse({
      continue: false,
      stopReason: 'halt',
      hookSpecificOutput: { permissionDecision: 'allow' },
    });
    expect({ ...r.output }).toEqual({ continue: false, stopReason: 'halt', decision: 'allow' });
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

  it('carries systemMessage and suppressOutput, and lists fields it has no use for', () => {
    const r = parse({
      decision: 'approve',
      suppressOutput: true,
      systemMessage: 'hi',
      hookSpecificOutput: { other: 1, sessionTitle: 't' },
    });
    expect({ ...r.output }).toEqual({ decision: 'allow', suppressOutput: true, systemMessage: 'hi' });
    expect(r.unknownFields).toEqual(['hookSpecificOutput.other', 'hookSpecificOutput.sessionTitle']);
  });

  it('maps permissionDecision "defer"', () => {
    const r = parse({
      hookSpecificOutput: { permissionDecision: 'defer', permissionDecisionReason: 'later' },
    });
    expect({ ...r.output }).toEqual({ decision: 'defer', reason: 'later' });
  });

  it('maps every field of the PermissionRequest decision, and lists one it does not know', () => {
    const r = parse(
      {
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          decision: {
            behavior: 'deny',
            message: 'not here',
            updatedInput: { command: 'ls' },
            updatedPermissions: [{ type: 'setMode', mode: 'plan', destination: 'session' }],
            interrupt: true,
            colour: 'red',
          },
        },
      },
      'ApprovalRequest',
    );
    expect({ ...r.output }).toEqual({
      decision: 'deny',
      reason: 'not here',
      mutatedToolInput: { command: 'ls' },
      updatedPermissions: [{ type: 'setMode', mode: 'plan', destination: 'session' }],
      interrupt: true,
    });
    expect(r.unknownFields).toEqual(['hookSpecificOutput.decision.colour']);
  });

  it('maps updatedToolOutput and the older updatedMCPToolOutput', () => {
    for (const key of ['updatedToolOutput', 'updatedMCPToolOutput'])
      expect({ ...parse({ hookSpecificOutput: { [key]: 'x' } }, 'AfterTool').output }).toEqual({
        updatedToolOutput: 'x',
      });
  });

  it('honours a PreCompact block from Claude Code and FreeCode hooks, not from hookwarden ones', () => {
    const block = { decision: 'block', reason: 'not now' };
    for (const dialect of ['claude-code', 'freecode'] as const)
      expect({ ...parse(block, 'BeforeCompact', { dialect }).output }).toEqual({
        decision: 'deny',
        reason: 'not now',
      });
    const own = parse(block, 'BeforeCompact', { dialect: 'hookwarden' });
    expect({ ...own.output }).toEqual({});
    expect(own.unknownFields).toEqual(['decision']);
    expect({ ...parse({ decision: 'deny' }, 'BeforeCompact').output }).toEqual({});
  });
});

describe("the seeds' vocabularies", () => {
  it("reads FreeCode's stdout: block, reason, context", () => {
    expect({ ...parse({ block: true, reason: 'no', context: 'why' }).output }).toEqual({
      decision: 'deny',
      reason: 'no',
      additionalContext: 'why',
    });
    expect({ ...parse({ block: false, context: 'fyi' }).output }).toEqual({ additionalContext: 'fyi' });
  });

  it("shallow-merges FreeCode's modifiedInput into the tool input the hook was given", () => {
    const r = parse({ block: false, modifiedInput: { path: 'src/safe.ts' } }, 'BeforeTool', {
      toolInput: { path: '/etc/passwd', content: 'x' },
    });
    expect({ ...r.output }).toEqual({ mutatedToolInput: { path: 'src/safe.ts', content: 'x' } });
    // Without a tool input the patch is the input.
    expect({ ...parse({ modifiedInput: { a: 1 } }).output }).toEqual({ mutatedToolInput: { a: 1 } });
  });

  it("reads FreeCode's callback actions", () => {
    expect({ ...parse({ action: 'block', reason: 'stop' }).output }).toEqual({
      decision: 'deny',
      reason: 'stop',
    });
    expect({ ...parse({ action: 'continue' }).output }).toEqual({});
    expect({
      ...parse({ action: 'modify', modifiedInput: { b: 2 } }, 'BeforeTool', { toolInput: { a: 1 } }).output,
    }).toEqual({
      mutatedToolInput: { a: 1, b: 2 },
    });
  });

  it("reads Mayura's decision continue/block, and lists its actions as ignored", () => {
    expect({ ...parse({ decision: 'continue' }).output }).toEqual({});
    const r = parse({ decision: 'block', actions: [{ toolId: 'x', input: {} }] });
    expect({ ...r.output }).toEqual({ decision: 'deny' });
    expect(r.unknownFields).toEqual(['actions']);
  });

  it('a block on Stop means keep working, as with Claude Code', () => {
    expect({ ...parse({ block: true, reason: 'tests fail' }, 'AfterTurn').output }).toEqual({
      continueWork: { reason: 'tests fail' },
    });
  });

  it('refuses malformed seed fields with the field named', () => {
    for (const [raw, field] of [
      [{ block: 'yes' }, 'block'],
      [{ action: 'explode' }, 'action'],
      [{ modifiedInput: 'x' }, 'modifiedInput'],
      [{ context: 7 }, 'context'],
    ] as const) {
      const r = parseHookOutput(raw, 'BeforeTool');
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message.startsWith(`${field}:`)).toBe(true);
    }
  });

  it('keeps the null-prototype guarantee through a merge', () => {
    const toolInput = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
    const r = parse({ modifiedInput: { b: 2 } }, 'BeforeTool', { toolInput });
    const merged = r.output?.mutatedToolInput as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).toBe(null);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
