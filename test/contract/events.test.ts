import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENTS, EVENT_ALIASES, EventCatalogue } from '../../src/contract/events.js';

const catalogue = new EventCatalogue(DEFAULT_EVENTS);

describe('event catalogue', () => {
  it('holds the 13 built-in events in firing order with DESIGN’s properties', () => {
    expect(catalogue.names()).toEqual([
      'SessionStart',
      'BeforeTurn',
      'BeforeModel',
      'BeforeTool',
      'ApprovalRequest',
      'AfterTool',
      'AfterModel',
      'BeforeCompact',
      'AfterCompact',
      'BeforeSubagent',
      'AfterSubagent',
      'AfterTurn',
      'SessionEnd',
    ]);
    const table = DEFAULT_EVENTS.map((e) => [e.name, e.mode, e.canDeny, e.toolScoped]);
    expect(table).toEqual([
      ['SessionStart', 'parallel', false, false],
      ['BeforeTurn', 'serial', true, false],
      ['BeforeModel', 'serial', true, false],
      ['BeforeTool', 'serial', true, true],
      ['ApprovalRequest', 'serial', true, true],
      ['AfterTool', 'serial', false, true],
      ['AfterModel', 'serial', false, false],
      ['BeforeCompact', 'parallel', false, false],
      ['AfterCompact', 'parallel', false, false],
      ['BeforeSubagent', 'serial', false, false],
      ['AfterSubagent', 'serial', false, false],
      ['AfterTurn', 'serial', false, false],
      ['SessionEnd', 'parallel', false, false],
    ]);
  });

  it('resolves every Claude Code / FreeCode alias, PostToolUseFailure with ok:false', () => {
    const expected: Record<string, string> = {
      PreToolUse: 'BeforeTool',
      PostToolUse: 'AfterTool',
      PostToolUseFailure: 'AfterTool',
      PermissionRequest: 'ApprovalRequest',
      UserPromptSubmit: 'BeforeTurn',
      Stop: 'AfterTurn',
      SubagentStart: 'BeforeSubagent',
      SubagentStop: 'AfterSubagent',
      PreCompact: 'BeforeCompact',
      PostCompact: 'AfterCompact',
    };
    expect(Object.keys(EVENT_ALIASES).sort()).toEqual(Object.keys(expected).sort());
    for (const [alias, target] of Object.entries(expected)) expect(catalogue.get(alias)?.name).toBe(target);
    expect(catalogue.resolve('PostToolUseFailure')?.aliasInput).toEqual({ ok: false });
    expect(catalogue.resolve('Notification')).toBeUndefined();
    expect(catalogue.resolve('toString')).toBeUndefined();
  });
});
