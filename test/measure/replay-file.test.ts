// Reading a recorded session: any dialect's spelling, sessions told apart, every problem named by
// file and line (never a stack trace).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookwardenError } from '../../src/index.js';
import { readRecording } from '../../src/measure/replay-file.js';
import { tempDir, writeFile } from '../helpers/fixture.js';

const line = (o: object) => JSON.stringify(o);

function recording(text: string, name = 'session.jsonl'): string {
  return writeFile(join(tempDir('hw-replay-'), name), text);
}

function problem(path: string): string {
  try {
    readRecording(path);
  } catch (err) {
    expect(err).toBeInstanceOf(HookwardenError);
    expect((err as HookwardenError).code).toBe('invalid_input');
    return (err as Error).message;
  }
  throw new Error('expected the recording to be refused');
}

describe('readRecording', () => {
  it('reads events in Claude Code and hookwarden spellings, in order, skipping blank lines', () => {
    const path = recording(
      [
        line({ session_id: 'a', hook_event_name: 'SessionStart', source: 'startup' }),
        '',
        line({
          session_id: 'a',
          hook_event_name: 'PreToolUse',
          tool_name: 'Bash',
          tool_input: { command: 'ls' },
        }),
        line({ sessionId: 'a', event: 'AfterTool', toolName: 'Bash', toolResult: 'x' }),
        '   ',
      ].join('\n'),
    );
    const r = readRecording(path);
    expect(r.events.map((e) => e.event)).toEqual(['SessionStart', 'PreToolUse', 'AfterTool']);
    expect(r.sessions.map((s) => s.id)).toEqual(['a']);
    expect(r.events[1]!.input).toMatchObject({ tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(r.events[2]!.at).toBe(`${path}:4`);
    expect(r.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('keeps each session in its own order, sessions in order of first appearance', () => {
    const path = recording(
      [
        line({ session_id: 's1', hook_event_name: 'SessionStart' }),
        line({ session_id: 's2', hook_event_name: 'SessionStart' }),
        line({ session_id: 's1', hook_event_name: 'Stop' }),
        line({ session_id: 's2', hook_event_name: 'Stop' }),
      ].join('\n'),
    );
    const r = readRecording(path);
    expect(r.sessions.map((s) => [s.id, s.events.map((e) => e.event)])).toEqual([
      ['s1', ['SessionStart', 'Stop']],
      ['s2', ['SessionStart', 'Stop']],
    ]);
    expect(r.events.map((e) => e.at.split(':').pop())).toEqual(['1', '3', '2', '4']);
  });

  it('reads every .jsonl file of a directory by name; a line without a session belongs to its file', () => {
    const dir = tempDir('hw-replay-dir-');
    writeFile(join(dir, 'b.jsonl'), line({ event: 'Stop' }));
    writeFile(join(dir, 'a.jsonl'), line({ event: 'SessionStart' }));
    writeFile(join(dir, 'notes.txt'), 'not a recording');
    const r = readRecording(dir);
    expect(r.files.map((f) => f.slice(dir.length + 1))).toEqual(['a.jsonl', 'b.jsonl']);
    expect(r.sessions.map((s) => s.id)).toEqual(['a', 'b']);
  });

  it('digests the events as given: the same lines, the same digest; any change, another', () => {
    const text = line({ hook_event_name: 'Stop', session_id: 's', b: 1, a: 2 });
    const a = readRecording(recording(text));
    const b = readRecording(recording(line({ session_id: 's', a: 2, hook_event_name: 'Stop', b: 1 })));
    const c = readRecording(recording(line({ hook_event_name: 'Stop', session_id: 's', b: 1, a: 3 })));
    expect(b.digest).toBe(a.digest);
    expect(c.digest).not.toBe(a.digest);
  });

  it('names the file and line of a line that is not a JSON object, names no event, or names two', () => {
    expect(problem(recording(`${line({ event: 'Stop' })}\n{"event":`))).toMatch(/session\.jsonl:2: not JSON/);
    expect(problem(recording('[1,2]'))).toMatch(/:1: expected a JSON object/);
    expect(problem(recording(line({ tool_name: 'Bash' })))).toMatch(
      /:1: expected the event's name in "hook_event_name" \(Claude Code\) or "event" \(hookwarden\), got nothing/,
    );
    expect(problem(recording(line({ event: 42 })))).toMatch(/got 42/);
    expect(problem(recording(line({ event: 'Stop', hook_event_name: 'PreToolUse' })))).toMatch(
      /hook_event_name "PreToolUse" and event "Stop" name different events/,
    );
    expect(problem(recording(line({ event: 'Stop', session_id: { id: 1 } })))).toMatch(
      /session_id: expected a string/,
    );
  });

  it('refuses a line nested deeper than any input may be, an empty recording and a missing file, without a stack', () => {
    const deep = `{"event":"Stop","x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(problem(recording(deep))).toMatch(/:1: nested deeper than 512 levels/);
    expect(problem(recording('\n\n'))).toMatch(/no events: the recording is empty/);
    expect(problem(tempDir('hw-replay-empty-'))).toMatch(/a directory without \.jsonl files/);
    expect(problem(join(tempDir(), 'missing.jsonl'))).toMatch(/cannot read \(ENOENT\)/);
  });
});
