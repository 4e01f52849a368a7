import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENTS, EVENT_ALIASES, EventCatalogue } from '../../src/contract/events.js';

const catalogue = new EventCatalogue(DEFAULT_EVENTS);

describe('event catalogue', () => {
  it("holds hookwarden's 13 events in firing order with the catalogue's properties, then Claude Code's others", () => {
    const table = DEFAULT_EVENTS.map((e) => [e.name, e.mode, e.canDeny, e.toolScoped, e.matchOn.join(',')]);
    expect(table).toEqual([
      ['SessionStart', 'parallel', false, false, 'source'],
      ['BeforeTurn', 'serial', true, false, ''],
      ['BeforeModel', 'serial', true, false, ''],
      ['BeforeTool', 'serial', true, true, ''],
      ['ApprovalRequest', 'serial', true, true, ''],
      ['AfterTool', 'serial', false, true, ''],
      ['AfterModel', 'serial', false, false, ''],
      // Claude Code and FreeCode let a PreCompact hook block the compaction.
      ['BeforeCompact', 'parallel', true, false, 'compaction.trigger,trigger'],
      ['AfterCompact', 'parallel', false, false, 'compaction.trigger,trigger'],
      ['BeforeSubagent', 'serial', false, false, 'agentType,subagentName'],
      ['AfterSubagent', 'serial', false, false, 'agentType,subagentName'],
      ['AfterTurn', 'serial', false, false, ''],
      ['SessionEnd', 'parallel', false, false, 'reason'],
      ['Setup', 'parallel', false, false, 'trigger'],
      ['Notification', 'parallel', false, false, 'notificationType'],
      ['UserPromptExpansion', 'serial', true, false, 'commandName'],
      ['PostToolBatch', 'serial', true, false, ''],
      ['PermissionDenied', 'parallel', false, true, ''],
      ['StopFailure', 'parallel', false, false, 'error'],
      ['Interrupt', 'parallel', false, false, 'source'],
      ['TeammateIdle', 'serial', false, false, ''],
      ['TaskCreated', 'serial', true, false, ''],
      ['TaskCompleted', 'serial', true, false, ''],
      ['ConfigChange', 'serial', true, false, 'source'],
      ['InstructionsLoaded', 'parallel', false, false, 'loadReason'],
      ['CwdChanged', 'parallel', false, false, ''],
      ['DirectoryAdded', 'parallel', false, false, 'source'],
      ['FileChanged', 'parallel', false, false, 'basename:filePath'],
      ['WorktreeCreate', 'serial', true, false, ''],
      ['WorktreeRemove', 'serial', true, false, ''],
      ['Elicitation', 'serial', true, false, 'mcpServerName'],
      ['ElicitationResult', 'serial', true, false, 'mcpServerName'],
      ['PreModelSwitch', 'serial', true, false, 'toModel'],
      ['PostModelSwitch', 'parallel', false, false, 'toModel'],
      ['MessageDisplay', 'parallel', false, false, ''],
      ['PreSkillShellCommand', 'serial', true, true, ''],
    ]);
  });

  it('resolves every Claude Code / FreeCode alias, PostToolUse with ok:true, PostToolUseFailure with ok:false', () => {
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
      TurnEnd: 'AfterTurn',
    };
    expect(Object.keys(EVENT_ALIASES).sort()).toEqual(Object.keys(expected).sort());
    for (const [alias, target] of Object.entries(expected)) expect(catalogue.get(alias)?.name).toBe(target);
    expect(catalogue.resolve('PostToolUseFailure')?.aliasInput).toEqual({ ok: false });
    expect(catalogue.resolve('PostToolUse')?.aliasInput).toEqual({ ok: true });
    expect(catalogue.resolve('Notification')?.definition.name).toBe('Notification');
    expect(catalogue.resolve('TaskCompletd')).toBeUndefined();
    expect(catalogue.resolve('toString')).toBeUndefined();
  });
});
