// The DispatchResult → Claude Code answer mapping, event by event (Claude Code's hooks reference:
// "Exit code 2 behavior per event", "JSON output", "Decision control").
import { describe, expect, it } from 'vitest';
import { claudeCodeFailure, toClaudeCodeAnswer } from '../../src/contract/claude-code-answer.js';
import { CLAUDE_CODE_EVENTS } from '../../src/contract/claude-code-events.js';
import { DEFAULT_EVENTS, EVENT_ALIASES, EventCatalogue } from '../../src/contract/events.js';
import type { DispatchResult, HookRecord } from '../../src/contract/result.js';

const result = (fields: Partial<DispatchResult> & Record<string, unknown>): DispatchResult =>
  ({ event: 'X', decision: 'passthrough', hooks: [], ...fields }) as DispatchResult;
const deny = (reason = 'no rm -rf') => result({ decision: 'deny', reason, decidedBy: 'guard' });
const json = (stdout: string) => (stdout === '' ? undefined : JSON.parse(stdout));

/** [event, result, exit code, stdout JSON (undefined: empty), stderr] */
type Row = [string, DispatchResult, 0 | 1 | 2, unknown, string];

const rows: Row[] = [
  // PreToolUse: permissionDecision for every decision; a deny also exits 2 with the reason.
  [
    'PreToolUse',
    deny(),
    2,
    {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no rm -rf',
      },
    },
    'no rm -rf\n',
  ],
  [
    'PreToolUse',
    result({
      decision: 'allow',
      reason: 'read-only',
      mutatedToolInput: { command: 'ls -la' },
      additionalContext: 'ctx',
    }),
    0,
    {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        permissionDecisionReason: 'read-only',
        updatedInput: { command: 'ls -la' },
        additionalContext: 'ctx',
      },
    },
    '',
  ],
  [
    'PreToolUse',
    result({ decision: 'ask', reason: 'sure?' }),
    0,
    {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'ask',
        permissionDecisionReason: 'sure?',
      },
    },
    '',
  ],
  [
    'PreToolUse',
    result({ decision: 'defer' }),
    0,
    { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'defer' } },
    '',
  ],
  ['PreToolUse', result({}), 0, undefined, ''],
  // A deny without a reason names the hook that decided.
  [
    'PreToolUse',
    result({ decision: 'deny', decidedBy: 'guard' }),
    2,
    {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'denied by hook "guard"',
      },
    },
    'denied by hook "guard"\n',
  ],
  // PermissionRequest: the decision object, exit 0 (exit 2 is not honoured there).
  [
    'PermissionRequest',
    result({ decision: 'deny', reason: 'not on main', interrupt: true }),
    0,
    {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'not on main', interrupt: true },
      },
    },
    '',
  ],
  [
    'PermissionRequest',
    result({
      decision: 'allow',
      mutatedToolInput: { command: 'npm run lint' },
      updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits' }],
    }),
    0,
    {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: {
          behavior: 'allow',
          updatedInput: { command: 'npm run lint' },
          updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits' }],
        },
      },
    },
    '',
  ],
  ['PermissionRequest', result({ decision: 'ask' }), 0, undefined, ''],
  // Top-level decision "block" events.
  ['UserPromptSubmit', deny('no secrets'), 2, { decision: 'block', reason: 'no secrets' }, 'no secrets\n'],
  [
    'UserPromptSubmit',
    result({ additionalContext: 'branch: main' }),
    0,
    { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'branch: main' } },
    '',
  ],
  ['PreCompact', deny('keep it'), 2, { decision: 'block', reason: 'keep it' }, 'keep it\n'],
  ['ConfigChange', deny('managed'), 2, { decision: 'block', reason: 'managed' }, 'managed\n'],
  ['PostToolBatch', deny('stop'), 2, { decision: 'block', reason: 'stop' }, 'stop\n'],
  ['TaskCreated', deny('dup'), 2, { decision: 'block', reason: 'dup' }, 'dup\n'],
  ['Elicitation', deny('no'), 2, { decision: 'block', reason: 'no' }, 'no\n'],
  // Exit code alone.
  ['TaskCompleted', deny('tests fail'), 2, undefined, 'tests fail\n'],
  ['WorktreeRemove', deny('busy'), 2, undefined, 'busy\n'],
  // PreModelSwitch: permissionDecision allow/ask/deny.
  [
    'PreModelSwitch',
    result({ decision: 'ask', reason: 'costly' }),
    0,
    {
      hookSpecificOutput: {
        hookEventName: 'PreModelSwitch',
        permissionDecision: 'ask',
        permissionDecisionReason: 'costly',
      },
    },
    '',
  ],
  // Keep working.
  [
    'Stop',
    result({ continueWork: { reason: 'tests not run' } }),
    0,
    { decision: 'block', reason: 'tests not run' },
    '',
  ],
  [
    'SubagentStop',
    result({ continueWork: { reason: 'again' } }),
    0,
    { decision: 'block', reason: 'again' },
    '',
  ],
  ['TeammateIdle', result({ continueWork: { reason: 'task 3 open' } }), 2, undefined, 'task 3 open\n'],
  // Tool results.
  [
    'PostToolUse',
    result({ additionalContext: 'generated file', updatedToolOutput: { ok: 1 } }),
    0,
    {
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        updatedToolOutput: { ok: 1 },
        additionalContext: 'generated file',
      },
    },
    '',
  ],
  [
    'PostToolUseFailure',
    result({ additionalContext: 'retry with sudo' }),
    0,
    { hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: 'retry with sudo' } },
    '',
  ],
  // Context only.
  [
    'SessionStart',
    result({ additionalContext: 'read CONTRIBUTING.md' }),
    0,
    { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'read CONTRIBUTING.md' } },
    '',
  ],
  // Universal fields, on any event.
  [
    'Notification',
    result({ systemMessage: 'pinged', suppressOutput: true }),
    0,
    { systemMessage: 'pinged', suppressOutput: true },
    '',
  ],
  [
    'PreToolUse',
    result({ decision: 'deny', reason: 'build broken', continue: false, stopReason: 'build broken' }),
    2,
    {
      continue: false,
      stopReason: 'build broken',
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'build broken',
      },
    },
    'build broken\n',
  ],
  [
    'Stop',
    result({ continue: false, stopReason: 'done for today' }),
    0,
    { continue: false, stopReason: 'done for today' },
    '',
  ],
  // A deny where Claude Code cannot block (a mandatory hook failed): a non-blocking error.
  ['SessionStart', deny('mandatory hook failed'), 1, undefined, 'mandatory hook failed\n'],
  ['Stop', deny('mandatory hook failed'), 1, undefined, 'mandatory hook failed\n'],
];

describe('a DispatchResult as Claude Code reads it', () => {
  it.each(rows)('%s: %j → exit %i', (event, r, exitCode, stdout, stderr) => {
    const a = toClaudeCodeAnswer(event, r);
    expect({ exitCode: a.exitCode, stdout: json(a.stdout), stderr: a.stderr }).toEqual({
      exitCode,
      stdout,
      stderr,
    });
  });

  it('names the fields Claude Code has no place for, and notes them only when stderr is not a reason', () => {
    const a = toClaudeCodeAnswer('UserPromptSubmit', result({ mutatedPrompt: 'p', modelOverride: 'm' }));
    expect(a.dropped).toEqual(['mutatedPrompt', 'modelOverride']);
    expect(a.stderr).toBe(
      'hookwarden: Claude Code takes no mutatedPrompt on UserPromptSubmit: dropped\nhookwarden: Claude Code takes no modelOverride on UserPromptSubmit: dropped\n',
    );
    const blocked = toClaudeCodeAnswer('UserPromptSubmit', {
      ...deny('x'),
      mutatedPrompt: 'p',
    } as DispatchResult);
    expect(blocked.stderr).toBe('x\n');
  });

  it('shows a hook that failed to the user as Claude Code shows a non-blocking error: exit 1, one line each; with JSON to say, in systemMessage', () => {
    const failed: HookRecord = {
      id: 'lint',
      type: 'command',
      scope: 'project',
      outcome: 'timeout',
      latencyMs: 1,
      queuedMs: 0,
      error: { code: 'timeout', message: 'ran past\n30 s' },
    };
    const a = toClaudeCodeAnswer('PostToolUse', result({ hooks: [failed] }));
    expect(a).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: 'hookwarden: hook "lint" failed (timeout): ran past 30 s\n',
    });
    const withContext = toClaudeCodeAnswer(
      'PostToolUse',
      result({ hooks: [failed], additionalContext: 'fmt ok' }),
    );
    expect(withContext.exitCode).toBe(0);
    expect(JSON.parse(withContext.stdout)).toEqual({
      systemMessage: 'hookwarden: hook "lint" failed (timeout): ran past 30 s',
      hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'fmt ok' },
    });
  });

  it('hands the session env over as bash on the events Claude Code gives a CLAUDE_ENV_FILE, and drops it elsewhere', () => {
    const script = 'export A=1\nexport PATH="$PATH:/opt/x/bin"';
    const both = toClaudeCodeAnswer(
      'SessionStart',
      result({ sessionEnv: { A: '1' }, sessionEnvScript: script }),
    );
    expect([both.sessionEnvScript, both.dropped]).toEqual([script, []]);
    // A result with literal values only (a platform's own fold): export lines, quoted.
    expect(toClaudeCodeAnswer('CwdChanged', result({ sessionEnv: { A: "it's" } })).sessionEnvScript).toBe(
      "export A='it'\\''s'",
    );
    const elsewhere = toClaudeCodeAnswer(
      'Stop',
      result({ sessionEnv: { A: '1' }, sessionEnvScript: script }),
    );
    expect([elsewhere.sessionEnvScript, elsewhere.dropped]).toEqual([
      undefined,
      ['sessionEnv', 'sessionEnvScript'],
    ]);
  });

  it("shows the user what a hook's answer could not do (its record's warnings) as a systemMessage", () => {
    const warned = result({
      hooks: [
        {
          id: 'env',
          type: 'command',
          scope: 'project',
          outcome: 'proceed',
          latencyMs: 1,
          queuedMs: 0,
          warnings: ['CLAUDE_ENV_FILE line 2 (source): runs a command\nsecond line: not applied'],
        },
      ],
    });
    const a = toClaudeCodeAnswer('SessionStart', warned);
    expect([a.exitCode, JSON.parse(a.stdout)]).toEqual([
      0,
      {
        systemMessage:
          'hookwarden: hook "env": CLAUDE_ENV_FILE line 2 (source): runs a command second line: not applied',
      },
    ]);
  });

  it('answers an interrupted dispatch that is not a deny as a non-blocking error', () => {
    const a = toClaudeCodeAnswer('Notification', result({ interrupted: true }));
    expect([a.exitCode, a.stderr]).toEqual([1, 'interrupted before every hook ran\n']);
  });

  it('knows every event of the catalogue by its Claude Code name', () => {
    const catalogue = new EventCatalogue(DEFAULT_EVENTS);
    for (const name of Object.keys(CLAUDE_CODE_EVENTS)) expect(catalogue.get(name), name).toBeDefined();
    const own = new Set(['BeforeModel', 'AfterModel', ...Object.values(EVENT_ALIASES).map((a) => a.event)]);
    // TurnEnd is FreeCode's name for Stop: Claude Code never sends it.
    const aliases = Object.keys(EVENT_ALIASES).filter((n) => n !== 'TurnEnd');
    const ccNames = [...aliases, ...catalogue.names().filter((n) => !own.has(n))];
    expect(Object.keys(CLAUDE_CODE_EVENTS).sort()).toEqual(ccNames.sort());
  });
});

describe('a failure with no verdict', () => {
  it('blocks (exit 2, one line) where the event can block and when the event is unknown', () => {
    expect(claudeCodeFailure('PreToolUse', true, 'config broken\nat line 3')).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: 'hookwarden: config broken\n',
      dropped: [],
    });
    expect(claudeCodeFailure(undefined, false, 'not JSON').exitCode).toBe(2);
  });

  it('is a non-blocking error (exit 1) on an event that cannot block', () => {
    expect(claudeCodeFailure('Stop', false, 'config broken')).toMatchObject({ exitCode: 1, stdout: '' });
  });

  it('denies a PermissionRequest with its JSON decision', () => {
    const a = claudeCodeFailure('PermissionRequest', true, 'config broken');
    expect([a.exitCode, json(a.stdout)]).toEqual([
      0,
      {
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          decision: { behavior: 'deny', message: 'hookwarden: config broken' },
        },
      },
    ]);
  });
});
