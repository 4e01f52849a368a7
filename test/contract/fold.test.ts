import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENTS, type EventDefinition } from '../../src/contract/events.js';
import { type FoldHook, foldAnswers, type HookAnswer } from '../../src/contract/fold.js';
import type { HookInput, HookOutput } from '../../src/contract/types.js';

const ev = (name: string): EventDefinition => DEFAULT_EVENTS.find((e) => e.name === name)!;
const input: HookInput = {
  event: 'BeforeTool',
  sessionId: 's',
  cwd: '/',
  timestamp: '2026-01-01T00:00:00Z',
  toolName: 'Bash',
  toolInput: { command: 'ls' },
};
const hook = (id: string, onError: 'skip' | 'deny' = 'skip'): FoldHook => ({
  id,
  type: 'command',
  scope: 'project',
  onError,
});
const out = (output: HookOutput | undefined, unknownFields: string[] = []): HookAnswer => ({
  kind: 'output',
  output,
  unknownFields,
  latencyMs: 1,
  queuedMs: 0,
});
const fail = (code: 'timeout' | 'runtime_error' | 'output_limit' | 'nonzero_exit'): HookAnswer => ({
  kind: 'failure',
  error: { code, message: 'boom' },
  latencyMs: 1,
  queuedMs: 0,
});

describe('fold', () => {
  it('is passthrough when no hook expressed a decision, and allow when one approved', () => {
    const none = foldAnswers(ev('ApprovalRequest'), input, [
      [hook('a'), out(undefined)],
      [hook('b'), out({ additionalContext: 'x' })],
    ]);
    expect(none.decision).toBe('passthrough');
    expect(none.decidedBy).toBeUndefined();
    const approved = foldAnswers(ev('ApprovalRequest'), input, [
      [hook('a'), out(undefined)],
      [hook('b'), out({ decision: 'allow', reason: 'ok' })],
    ]);
    expect(approved).toMatchObject({ decision: 'allow', decidedBy: 'b', reason: 'ok' });
  });

  it('ranks deny over ask over allow, and the first hook to reach the top decision decides', () => {
    const r = foldAnswers(ev('BeforeTool'), input, [
      [hook('a'), out({ decision: 'allow', reason: 'a' })],
      [hook('b'), out({ decision: 'ask', reason: 'b' })],
      [hook('c'), out({ decision: 'ask', reason: 'c' })],
      [hook('d'), out({ decision: 'allow' })],
    ]);
    expect(r).toMatchObject({ decision: 'ask', decidedBy: 'b', reason: 'b' });
    expect(r.hooks.map((h) => h.outcome)).toEqual(['allow', 'ask', 'ask', 'allow']);
  });

  it('fails a hook whose output is not honoured into "proceed" with ignoredFields in output order', () => {
    const r = foldAnswers(ev('SessionStart'), input, [
      [
        hook('a'),
        out({ decision: 'deny', reason: 'no', mutatedText: 't', additionalContext: 'ctx' }, ['foo']),
      ],
    ]);
    expect(r.decision).toBe('passthrough');
    expect(r.additionalContext).toBe('ctx');
    expect(r.mutatedText).toBeUndefined();
    expect(r.hooks[0]).toMatchObject({
      outcome: 'proceed',
      ignoredFields: ['decision', 'reason', 'mutatedText', 'foo'],
    });
  });

  it('does not honour ask on an event that only honours deny and allow', () => {
    const r = foldAnswers(ev('BeforeTurn'), input, [[hook('a'), out({ decision: 'ask' })]]);
    expect(r.decision).toBe('passthrough');
    expect(r.hooks[0]!.ignoredFields).toEqual(['decision']);
  });

  it('keeps every additionalContext joined with newlines and lets the last mutation win', () => {
    const r = foldAnswers(ev('BeforeTool'), input, [
      [hook('a'), out({ additionalContext: 'one', mutatedToolInput: { command: 'ls -1' } })],
      [hook('b'), out({ additionalContext: 'two', mutatedToolInput: { command: 'ls -2' } })],
    ]);
    expect(r.additionalContext).toBe('one\ntwo');
    expect(r.mutatedToolInput).toEqual({ command: 'ls -2' });
  });

  it('records hooks after the first deny as not-run is the dispatcher’s job; the fold marks itself stopped', async () => {
    const { startFold, foldStep } = await import('../../src/contract/fold.js');
    let s = startFold(input);
    s = foldStep(ev('BeforeTool'), s, hook('a'), out({ decision: 'deny', reason: 'no' }));
    expect(s.stopped).toBe(true);
    s = foldStep(ev('BeforeTool'), s, hook('b'), { kind: 'not-run' });
    expect(s.records.map((r) => r.outcome)).toEqual(['deny', 'not-run']);
  });

  it('chains rewrites on serial events: the next hook sees the previous mutation', async () => {
    const { startFold, foldStep } = await import('../../src/contract/fold.js');
    let s = startFold(input);
    s = foldStep(ev('BeforeTool'), s, hook('a'), out({ mutatedToolInput: { command: 'ls -l' } }));
    expect(s.input.toolInput).toEqual({ command: 'ls -l' });
    expect(input.toolInput).toEqual({ command: 'ls' });
    const turn = foldStep(
      ev('BeforeTurn'),
      startFold({ ...input, prompt: 'hi' }),
      hook('a'),
      out({ mutatedPrompt: 'hello' }),
    );
    expect(turn.input.prompt).toBe('hello');
    const sub = foldStep(ev('AfterSubagent'), startFold(input), hook('a'), out({ mutatedText: 'redacted' }));
    expect(sub.input.subagentResult).toBe('redacted');
  });

  it('skips failed hooks by default (fail-open) and denies for onError "deny" (fail-closed), naming the hook', () => {
    const open = foldAnswers(ev('BeforeTool'), input, [
      [hook('a'), fail('runtime_error')],
      [hook('b'), out({ decision: 'allow' })],
    ]);
    expect(open.decision).toBe('allow');
    expect(open.hooks[0]).toMatchObject({ outcome: 'error', error: { code: 'runtime_error' } });
    const closed = foldAnswers(ev('BeforeTool'), input, [[hook('a', 'deny'), fail('timeout')]]);
    expect(closed.decision).toBe('deny');
    expect(closed.decidedBy).toBe('a');
    expect(closed.reason).toContain('"a"');
    expect(closed.hooks[0]!.outcome).toBe('timeout');
    const limit = foldAnswers(ev('BeforeTool'), input, [[hook('a'), fail('output_limit')]]);
    expect(limit.hooks[0]!.outcome).toBe('limit');
  });

  it('makes a fail-closed observer failure deny the dispatch (mandatory observer)', () => {
    const r = foldAnswers(ev('SessionEnd'), input, [[hook('audit', 'deny'), fail('nonzero_exit')]]);
    expect(r.decision).toBe('deny');
    expect(r.decidedBy).toBe('audit');
  });

  it('is deterministic: the same answers fold to the same JSON', () => {
    const answers: [FoldHook, HookAnswer][] = [
      [hook('a'), out({ additionalContext: 'x', decision: 'allow' })],
      [hook('b'), fail('timeout')],
      [hook('c'), out({ decision: 'ask', mutatedToolInput: { a: 1 } })],
    ];
    expect(JSON.stringify(foldAnswers(ev('BeforeTool'), input, answers))).toBe(
      JSON.stringify(foldAnswers(ev('BeforeTool'), input, answers)),
    );
  });

  it('puts result keys in the documented order', () => {
    const r = foldAnswers(ev('BeforeTool'), input, [
      [hook('a'), out({ decision: 'ask', reason: 'r', additionalContext: 'c', mutatedToolInput: {} })],
    ]);
    expect(Object.keys(r)).toEqual([
      'event',
      'decision',
      'reason',
      'decidedBy',
      'additionalContext',
      'mutatedToolInput',
      'hooks',
    ]);
  });
});
