// The four agent protocols as pure functions: every recorded event input (test/fixtures/agents/, from
// each agent's own schemas, code or docs) becomes a dispatch of a catalogue event with the tool named
// in the one vocabulary and the agent's input kept; a hook written for the agent reads it back as
// sent; verdicts are answered in each agent's own form.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENTS } from '../../src/contract/agents/index.js';
import type { AgentName } from '../../src/contract/agents/protocol.js';
import { DEFAULT_EVENTS, EventCatalogue } from '../../src/contract/events.js';
import { withCamelCaseNames } from '../../src/contract/input-names.js';
import type { DispatchResult } from '../../src/contract/result.js';
import type { HookInput } from '../../src/contract/types.js';
import { prepareInput } from '../../src/dispatch/prepare-input.js';

type Obj = Record<string, unknown>;
const catalogue = new EventCatalogue(DEFAULT_EVENTS);
const recorded = (agent: AgentName): Record<string, Obj> =>
  JSON.parse(readFileSync(new URL(`../fixtures/agents/${agent}.json`, import.meta.url), 'utf8'));

/** The HookInput a dispatch of `event` with `input` hands its hooks. */
function hookInput(event: string, input: Obj): HookInput {
  const resolved = catalogue.resolve(event)!;
  return prepareInput(
    resolved.definition.name,
    resolved.aliasInput,
    withCamelCaseNames(input, resolved.definition.name),
    '/work',
  );
}

const result = (fields: Partial<DispatchResult>): DispatchResult => ({
  event: 'BeforeTool',
  decision: 'passthrough',
  hooks: [],
  ...fields,
});

/** The tool each recorded tool event is about, in the one vocabulary. */
const TOOLS: Record<AgentName, Record<string, string>> = {
  codex: { PreToolUse: 'Bash', PermissionRequest: 'Bash', PostToolUse: 'Bash' },
  gemini: { BeforeTool: 'Bash', AfterTool: 'Read' },
  cursor: {
    preToolUse: 'Bash',
    postToolUse: 'Bash',
    postToolUseFailure: 'Read',
    beforeShellExecution: 'Bash',
    afterShellExecution: 'Bash',
    beforeMCPExecution: 'mcp__unknown__database_query',
    afterMCPExecution: 'mcp__unknown__database_query',
    beforeReadFile: 'Read',
    beforeTabFileRead: 'Read',
    afterFileEdit: 'Write',
    afterTabFileEdit: 'Write',
  },
  copilot: { preToolUse: 'Bash', permissionRequest: 'Bash', postToolUse: 'Bash', postToolUseFailure: 'Bash' },
};

describe.each(['codex', 'gemini', 'cursor', 'copilot'] as const)('the %s protocol', (agent) => {
  const p = AGENTS[agent];
  const inputs = recorded(agent);

  it('has a recorded input for every event hookwarden routes', () => {
    const routed = Object.entries(p.events)
      .filter(([, e]) => e.left === undefined)
      .map(([name]) => name);
    expect(routed.filter((name) => !Object.hasOwn(inputs, name))).toEqual([]);
  });

  it.each(Object.keys(inputs))(
    '%s: dispatches a catalogue event, the tool in the one vocabulary',
    (event) => {
      const raw = inputs[event]!;
      const d = p.toDispatch(event, raw);
      const e = p.events[event]!;
      if (e.left !== undefined) return;
      expect(catalogue.resolve(d.event), d.event).toBeDefined();
      const input = hookInput(d.event, d.input);
      expect(typeof input.sessionId).toBe('string');
      expect(input.toolName).toBe(TOOLS[agent][event]);
      if (input.toolName !== undefined) expect(typeof input.toolInput).toBe('object');
      // The agent's own input travels with the dispatch, as sent.
      expect((input.agentEvent as Obj).input).toEqual(raw);
      // A hook written for the agent reads it back as the agent sent it.
      const rendered = p.renderInput(event, input);
      for (const [k, v] of Object.entries(raw)) expect(rendered[k], `${event}.${k}`).toEqual(v);
    },
  );

  it('refuses an input it cannot read, naming the field', () => {
    const bad: Obj =
      agent === 'copilot'
        ? { timestamp: 1, cwd: '/w', toolName: 'bash', toolArgs: 'not json' }
        : agent === 'cursor'
          ? { hook_event_name: 'beforeShellExecution', command: 42 }
          : {
              hook_event_name: agent === 'codex' ? 'PreToolUse' : 'BeforeTool',
              tool_name: 'Bash',
              tool_input: 'x',
            };
    const event = agent === 'copilot' ? 'preToolUse' : String(bad.hook_event_name);
    expect(() => p.toDispatch(event, bad)).toThrow(/tool_input|toolArgs|command/);
  });
});

describe("answers in each agent's own form", () => {
  const dispatched = (agent: AgentName, event: string) =>
    AGENTS[agent].toDispatch(event, recorded(agent)[event]!).input;
  const deny = result({ decision: 'deny', reason: 'no rm -rf', decidedBy: 'guard' });

  it('a deny', () => {
    expect(AGENTS.codex.toAnswer('PreToolUse', deny, dispatched('codex', 'PreToolUse'))).toMatchObject({
      exitCode: 2,
      stdout: '',
      stderr: 'no rm -rf\n',
    });
    expect(AGENTS.gemini.toAnswer('BeforeTool', deny, dispatched('gemini', 'BeforeTool'))).toMatchObject({
      exitCode: 2,
      stdout: '{"decision":"deny","reason":"no rm -rf"}\n',
    });
    expect(
      AGENTS.cursor.toAnswer('beforeShellExecution', deny, dispatched('cursor', 'beforeShellExecution')),
    ).toMatchObject({
      exitCode: 0,
      stdout: '{"permission":"deny","user_message":"no rm -rf","agent_message":"no rm -rf"}\n',
    });
    expect(
      AGENTS.cursor.toAnswer(
        'beforeSubmitPrompt',
        { ...deny, event: 'BeforeTurn' },
        dispatched('cursor', 'beforeSubmitPrompt'),
      ).stdout,
    ).toBe('{"continue":false,"user_message":"no rm -rf"}\n');
    expect(AGENTS.copilot.toAnswer('preToolUse', deny, dispatched('copilot', 'preToolUse'))).toMatchObject({
      exitCode: 0,
      stdout: '{"permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}\n',
    });
    expect(
      AGENTS.copilot.toAnswer('permissionRequest', deny, dispatched('copilot', 'permissionRequest')).stdout,
    ).toBe('{"behavior":"deny","message":"no rm -rf"}\n');
  });

  it('an ask: where the agent cannot ask, a deny (the stricter reading)', () => {
    const ask = result({ decision: 'ask', reason: 'confirm the push' });
    expect(AGENTS.codex.toAnswer('PreToolUse', ask, dispatched('codex', 'PreToolUse'))).toMatchObject({
      exitCode: 2,
    });
    expect(AGENTS.codex.toAnswer('PreToolUse', ask, dispatched('codex', 'PreToolUse')).stderr).toMatch(
      /cannot ask/,
    );
    expect(AGENTS.gemini.toAnswer('BeforeTool', ask, dispatched('gemini', 'BeforeTool')).stdout).toBe(
      '{"decision":"ask","reason":"confirm the push"}\n',
    );
    expect(
      AGENTS.cursor.toAnswer('beforeShellExecution', ask, dispatched('cursor', 'beforeShellExecution'))
        .stdout,
    ).toMatch(/^\{"permission":"ask"/);
    expect(AGENTS.cursor.toAnswer('preToolUse', ask, dispatched('cursor', 'preToolUse')).stdout).toMatch(
      /^\{"permission":"deny".*cannot ask/,
    );
    expect(AGENTS.copilot.toAnswer('preToolUse', ask, dispatched('copilot', 'preToolUse')).stdout).toBe(
      '{"permissionDecision":"ask","permissionDecisionReason":"confirm the push"}\n',
    );
  });

  it('an allow, and a passthrough (nothing to say)', () => {
    const allow = result({ decision: 'allow' });
    expect(AGENTS.codex.toAnswer('PreToolUse', allow, dispatched('codex', 'PreToolUse')).stdout).toBe('');
    expect(
      AGENTS.codex.toAnswer('PermissionRequest', allow, dispatched('codex', 'PermissionRequest')).stdout,
    ).toBe('{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}\n');
    expect(AGENTS.gemini.toAnswer('BeforeTool', allow, dispatched('gemini', 'BeforeTool')).stdout).toBe(
      '{"decision":"allow"}\n',
    );
    expect(AGENTS.cursor.toAnswer('preToolUse', allow, dispatched('cursor', 'preToolUse')).stdout).toBe(
      '{"permission":"allow"}\n',
    );
    expect(AGENTS.copilot.toAnswer('preToolUse', allow, dispatched('copilot', 'preToolUse')).stdout).toBe(
      '{"permissionDecision":"allow"}\n',
    );
    const none = result({});
    for (const [agent, event] of [
      ['codex', 'PreToolUse'],
      ['gemini', 'BeforeTool'],
      ['cursor', 'beforeShellExecution'],
      ['copilot', 'preToolUse'],
    ] as const)
      expect(AGENTS[agent].toAnswer(event, none, dispatched(agent, event))).toMatchObject({
        exitCode: 0,
        stdout: '',
      });
    // Cursor's failClosed hooks need a word on every call.
    expect(
      AGENTS.cursor.toAnswer('beforeShellExecution', none, dispatched('cursor', 'beforeShellExecution'), {
        explicitAllow: true,
      }).stdout,
    ).toBe('{"permission":"allow"}\n');
  });

  it("a rewrite, in the agent's own tool input", () => {
    const rewrite = (toolInput: Obj) => result({ mutatedToolInput: toolInput });
    expect(
      AGENTS.codex.toAnswer('PreToolUse', rewrite({ command: 'ls' }), dispatched('codex', 'PreToolUse'))
        .stdout,
    ).toBe(
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"}}}\n',
    );
    const g = dispatched('gemini', 'BeforeTool');
    const gIn = g.toolInput as Obj;
    expect(AGENTS.gemini.toAnswer('BeforeTool', rewrite({ ...gIn, command: 'ls' }), g).stdout).toBe(
      `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":${JSON.stringify({ ...gIn, command: 'ls' })}}}\n`,
    );
    // Gemini 0.61.0 builds the call from tool_input alone (evaluateBeforeToolHook): said as it is.
    expect(AGENTS.gemini.toAnswer('BeforeTool', rewrite({ command: 'ls' }), g).stdout).toBe(
      '{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"ls"}}}\n',
    );
    expect(
      AGENTS.cursor.toAnswer('preToolUse', rewrite({ command: 'ls' }), dispatched('cursor', 'preToolUse'))
        .stdout,
    ).toBe('{"updated_input":{"command":"ls"},"permission":"allow"}\n');
    expect(
      AGENTS.cursor.toAnswer(
        'beforeShellExecution',
        rewrite({ command: 'ls' }),
        dispatched('cursor', 'beforeShellExecution'),
      ).stdout,
    ).toMatch(/"permission":"deny".*cannot take/);
    // Copilot's view takes `path`: the vocabulary's file_path goes back under its own name.
    const view = AGENTS.copilot.toDispatch('preToolUse', {
      timestamp: 1,
      cwd: '/w',
      toolName: 'view',
      toolArgs: '{"path":"a.txt"}',
    }).input;
    expect(AGENTS.copilot.toAnswer('preToolUse', rewrite({ file_path: 'b.txt' }), view).stdout).toBe(
      '{"modifiedArgs":{"path":"b.txt"}}\n',
    );
  });

  it('no verdict: the blocking answer where the event can block, a non-blocking error elsewhere', () => {
    expect(AGENTS.codex.failure('PreToolUse', 'config broken')).toMatchObject({
      exitCode: 2,
      stderr: 'hookwarden: config broken\n',
    });
    expect(AGENTS.codex.failure('PostToolUse', 'config broken')).toMatchObject({ exitCode: 1 });
    expect(AGENTS.gemini.failure('BeforeTool', 'x').stdout).toBe(
      '{"decision":"deny","reason":"hookwarden: x"}\n',
    );
    expect(AGENTS.cursor.failure('beforeReadFile', 'x')).toMatchObject({
      exitCode: 0,
      stdout: /"permission":"deny"/,
    });
    expect(AGENTS.cursor.failure(undefined, 'x').stdout).toMatch(/"permission":"deny"/);
    expect(AGENTS.copilot.failure('preToolUse', 'x').stdout).toMatch(/"permissionDecision":"deny"/);
    expect(AGENTS.copilot.failure('sessionStart', 'x')).toMatchObject({ exitCode: 1, stdout: '' });
  });
});

describe("a hook written for an agent answers in that agent's words", () => {
  it('Cursor: permission, user_message, updated_input, followup_message, env', () => {
    const r = AGENTS.cursor.readAnswer(
      'preToolUse',
      { permission: 'deny', user_message: 'no', agent_message: 'nope' },
      undefined,
    );
    expect({ ...r.mapped }).toEqual({ decision: 'deny', reason: 'no' });
    expect({ ...AGENTS.cursor.readAnswer('stop', { followup_message: 'go on' }, undefined).mapped }).toEqual({
      continueWork: { reason: 'go on' },
    });
    expect({
      ...AGENTS.cursor.readAnswer('beforeSubmitPrompt', { continue: false, user_message: 'no' }, undefined)
        .mapped,
    }).toEqual({
      decision: 'deny',
      reason: 'no',
    });
  });

  it("Gemini: AfterTool's deny replaces the result, AfterAgent's retries, tool_input replaces the arguments", () => {
    expect({
      ...AGENTS.gemini.readAnswer('AfterTool', { decision: 'deny', reason: '[redacted]' }, undefined).mapped,
    }).toEqual({
      updatedToolOutput: '[redacted]',
    });
    expect({
      ...AGENTS.gemini.readAnswer('AfterAgent', { decision: 'block', reason: 'add tests' }, undefined).mapped,
    }).toEqual({
      continueWork: { reason: 'add tests' },
    });
    const d = AGENTS.gemini.toDispatch('BeforeTool', recorded('gemini').BeforeTool!);
    const input = hookInput(d.event, d.input);
    const r = AGENTS.gemini.readAnswer(
      'BeforeTool',
      { hookSpecificOutput: { tool_input: { command: 'ls' } } },
      input,
    );
    expect(r.mapped.mutatedToolInput).toEqual({ command: 'ls' });
  });

  it('Codex: what Codex would reject is invalid (a deny still counts)', () => {
    const spec = (o: Obj) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...o } });
    expect(
      AGENTS.codex.readAnswer('PreToolUse', spec({ permissionDecision: 'ask' }), undefined).invalid,
    ).toMatch(/unsupported permissionDecision:ask/);
    expect(
      AGENTS.codex.readAnswer('PreToolUse', spec({ permissionDecision: 'allow' }), undefined).invalid,
    ).toMatch(/unsupported permissionDecision:allow/);
    expect(
      AGENTS.codex.readAnswer('PreToolUse', { decision: 'block', reason: 'x', extra: 1 }, undefined).invalid,
    ).toMatch(/does not take "extra"/);
    expect(
      AGENTS.codex.readAnswer(
        'PreToolUse',
        spec({ permissionDecision: 'deny', permissionDecisionReason: 'no' }),
        undefined,
      ).invalid,
    ).toBeUndefined();
  });

  it("Copilot: permissionDecision, modifiedArgs (in Copilot's keys), decision block", () => {
    const d = AGENTS.copilot.toDispatch('preToolUse', {
      timestamp: 1,
      cwd: '/w',
      toolName: 'edit',
      toolArgs: '{"path":"a","old_str":"x","new_str":"y"}',
    });
    const input = hookInput(d.event, d.input);
    expect(input.toolInput).toEqual({ file_path: 'a', old_string: 'x', new_string: 'y' });
    const r = AGENTS.copilot.readAnswer(
      'preToolUse',
      { permissionDecision: 'allow', modifiedArgs: { path: 'b', old_str: 'x', new_str: 'z' } },
      input,
    );
    expect({ ...r.mapped }).toEqual({
      decision: 'allow',
      mutatedToolInput: { file_path: 'b', old_string: 'x', new_string: 'z' },
    });
  });
});
