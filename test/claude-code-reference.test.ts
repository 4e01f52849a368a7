// Claude Code's hook behaviour as one table of data (issue 24, item 13; the table:
// claude-code-reference-table.ts), read from @anthropic-ai/claude-agent-sdk 0.3.337 and the Claude
// Code 2.1.337 CLI it ships (the per-event help text of its hooks menu, the answer reader that switches on hookSpecificOutput.hookEventName, the matchQuery each
// event passes, its legacy tool-name table, its permission-rule matchers). A new release is a diff of
// REFERENCE; every row is checked against hookwarden: a real command hook run through the dispatcher,
// its result mapped as `hookwarden claude-code` maps it, and that answer read back by Claude Code's
// rules (`claudeCodeReads` below). Where hookwarden differs on purpose, KEPT says so and why (the same
// rows are in docs/claude-code.md's differences table).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ClaudeCodeAnswer, toClaudeCodeAnswer } from '../src/contract/claude-code-answer.js';
import { CLAUDE_CODE_EVENT_NAMES } from '../src/contract/events.js';
import type { DispatchResult } from '../src/contract/result.js';
import { createExecutor, type Executor } from '../src/index.js';
import { IfFilter } from '../src/registry/if-filter.js';
import { CLAUDE_CODE_TOOL_ALIASES } from '../src/registry/tool-aliases.js';
import { type EventRow, type Exit2, type Field, REFERENCE } from './claude-code-reference-table.js';
import { tempDir, writeConfig } from './helpers/fixture.js';

type EventName = keyof typeof REFERENCE.events;
const EVENTS = Object.keys(REFERENCE.events) as EventName[];

/** hookwarden's differences from a row, on purpose: event → [what hookwarden does instead, why]. */
const KEPT: Partial<Record<EventName, { exit2: Exit2; why: string }>> = {
  PermissionRequest: {
    exit2: 'block',
    why: 'a block is a block in every dialect: a PermissionRequest guard exiting 2 denies rather than leaving the call to the dialog',
  },
};

/** What Claude Code 2.1.337 makes of the adapter's answer at `event`, by its own rules. */
function claudeCodeReads(event: EventName, a: ClaudeCodeAnswer): Exit2 | 'context' | 'nothing' {
  const row: EventRow = REFERENCE.events[event];
  if (a.exitCode === 2) return row.exit2;
  if (a.exitCode === 1) return row.exit2 === 'ignored' ? 'ignored' : 'shownToUser';
  if (a.stdout === '') return 'nothing';
  let out: Record<string, unknown>;
  try {
    out = JSON.parse(a.stdout) as Record<string, unknown>;
  } catch {
    return 'context'; // plain text (PreCompact's instructions)
  }
  const specific = (out.hookSpecificOutput ?? {}) as Record<string, unknown>;
  if (out.decision === 'block') return row.exit2;
  if (specific.permissionDecision === 'deny') return 'block';
  if ((specific.decision as { behavior?: string } | undefined)?.behavior === 'deny') return 'block';
  if (typeof out.systemMessage === 'string') return 'shownToUser';
  if (typeof specific.additionalContext === 'string')
    return row.exit2 === 'feedback' ? 'feedback' : 'context';
  return 'nothing';
}

const dir = tempDir();
const root = tempDir();
const files = { out: join(root, 'out'), err: join(root, 'err'), code: join(root, 'code') };
let hw: Executor;

/** One hook per event of the table, answering what the test wrote to out/err/code. */
beforeAll(async () => {
  const command = `cat "${files.out}"; cat "${files.err}" >&2; exit "$(cat "${files.code}")"`;
  const hooks = Object.fromEntries(EVENTS.map((e) => [e, [{ hooks: [{ type: 'command', command }] }]]));
  hw = await createExecutor({
    config: writeConfig(dir, 'settings.json', { hooks }),
    root,
    onWarning: () => {},
  });
});
afterAll(() => hw?.close());

/** Dispatches Claude Code's input for `event` to a hook answering `answer`; the adapter's answer. */
async function run(event: EventName, answer: { stdout?: string; stderr?: string; code?: number }) {
  writeFileSync(files.out, answer.stdout ?? '');
  writeFileSync(files.err, answer.stderr ?? '');
  writeFileSync(files.code, String(answer.code ?? 0));
  const input = {
    session_id: 's-ref',
    transcript_path: join(root, 't.jsonl'),
    cwd: root,
    permission_mode: 'default',
    hook_event_name: event,
    ...REFERENCE.events[event].input,
  };
  const result: DispatchResult = await hw.dispatch(event, input);
  return { result, answer: toClaudeCodeAnswer(event, result) };
}

describe(`Claude Code ${REFERENCE.claudeCode} (SDK ${REFERENCE.sdk}) as a table`, () => {
  it('covers every event of the reference, and hookwarden knows each by its name', () => {
    // sdk.d.ts HOOK_EVENTS, in its order.
    expect(EVENTS).toEqual(
      expect.arrayContaining([...CLAUDE_CODE_EVENT_NAMES].filter((n) => n !== 'TurnEnd')),
    );
    expect([...CLAUDE_CODE_EVENT_NAMES].filter((n) => n !== 'TurnEnd').sort()).toEqual([...EVENTS].sort());
  });

  it.each(EVENTS)('%s: an exit 2 means what it means to Claude Code', async (event) => {
    const { answer } = await run(event, { stderr: 'stopped by the hook', code: 2 });
    const expected = KEPT[event]?.exit2 ?? REFERENCE.events[event].exit2;
    const read = claudeCodeReads(event, answer);
    expect(read === 'nothing' ? 'ignored' : read).toBe(expected);
    // Whatever Claude Code shows (the model or the user), it is the hook's stderr.
    if (expected !== 'ignored') expect(`${answer.stdout}${answer.stderr}`).toContain('stopped by the hook');
  });

  const fields = EVENTS.flatMap((event) =>
    Object.entries(REFERENCE.events[event].output as Record<string, Field>).map(
      ([f, how]) => [event, f, how] as const,
    ),
  );
  /** A value Claude Code would act on, per field. */
  const SAMPLE: Record<string, unknown> = {
    permissionDecision: 'ask',
    permissionDecisionReason: 'check it',
    updatedInput: { command: 'git push --dry-run' },
    additionalContext: 'from the hook',
    updatedToolOutput: { stdout: 'redacted' },
    updatedMCPToolOutput: { stdout: 'redacted' },
    decision: { behavior: 'deny', message: 'not on main' },
    action: 'decline',
    worktreePath: '/tmp/wt',
  };
  it.each(fields)('%s: hookSpecificOutput.%s is %s', async (event, field, how) => {
    const value =
      SAMPLE[field] ??
      (field === 'watchPaths' ? ['/p/x'] : field === 'reloadSkills' || field === 'retry' ? true : 'x');
    const extra =
      (field === 'permissionDecisionReason' || field === 'updatedInput') && how === 'passed'
        ? { permissionDecision: 'allow' }
        : {};
    const hso = { hookEventName: event, ...extra, [field]: value };
    const { result, answer } = await run(event, { stdout: JSON.stringify({ hookSpecificOutput: hso }) });
    const ignored = result.hooks[0]?.ignoredFields ?? [];
    if (how === 'ignored') {
      expect(ignored).toContain(`hookSpecificOutput.${field}`);
      return;
    }
    expect(ignored).not.toContain(`hookSpecificOutput.${field}`);
    const out = JSON.parse(answer.stdout || '{}') as Record<string, unknown>;
    const written = JSON.stringify(out);
    // Passed on: the value reaches Claude Code in the field it reads, or as its effect.
    if (how === 'blocks') expect(claudeCodeReads(event, answer)).toBe('block');
    else if (field === 'additionalContext' && (event === 'Stop' || event === 'SubagentStop'))
      expect(out).toEqual({ decision: 'block', reason: 'from the hook' });
    else if (field === 'action') expect(claudeCodeReads(event, answer)).toBe('block');
    else if (field === 'updatedMCPToolOutput')
      expect((out.hookSpecificOutput as Record<string, unknown>).updatedToolOutput).toEqual(value);
    else expect(written).toContain(JSON.stringify(value));
  });

  it.each(EVENTS)('%s: the matcher tests the field Claude Code tests', async (event) => {
    const row: EventRow = REFERENCE.events[event];
    const fires = async (matcher: string) => {
      const cfg = writeConfig(dir, `m-${event}.json`, {
        hooks: { [event]: [{ matcher, hooks: [{ type: 'command', command: 'exit 0' }] }] },
      });
      const e = await createExecutor({ config: cfg, root, onWarning: () => {} });
      try {
        const input = {
          session_id: 's',
          transcript_path: '/t',
          cwd: root,
          hook_event_name: event,
          ...row.input,
        };
        return (await e.dispatch(event, input)).hooks.length === 1;
      } finally {
        await e.close();
      }
    };
    if (row.matcher === undefined) {
      // No matcher at this event: it is not tested, the hook runs.
      expect(await fires('nothing-matches-this')).toBe(true);
      return;
    }
    const value = String((row.input as Record<string, unknown>)[row.matcher]);
    const subject = event === 'FileChanged' ? value.split('/').pop()! : value;
    expect(await fires(subject)).toBe(true);
    expect(await fires(`${subject}|other`)).toBe(true);
    expect(await fires('nothing-matches-this')).toBe(false);
  });

  it.each(Object.entries(REFERENCE.toolAliases))(
    'a %s matcher matches %s calls, and the other way round',
    (legacy, current) => {
      expect(CLAUDE_CODE_TOOL_ALIASES[legacy]).toBe(current);
      expect(new IfFilter(legacy).matches(current, {})).toBe(true);
      expect(new IfFilter(current).matches(legacy, {})).toBe(true);
    },
  );

  it.each(REFERENCE.ruleForms)('if %s on %j (cwd %s): %s', (rule, input, cwd, matches) => {
    const tool = rule.slice(0, rule.indexOf('('));
    expect(new IfFilter(rule, { configDir: '/proj/.claude' }).matches(tool, input, undefined, cwd)).toBe(
      matches,
    );
  });
});
