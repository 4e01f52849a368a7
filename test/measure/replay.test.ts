// runBench({ replay }): a recorded session replayed in order through a real executor, with figures
// per event name and what the hooks add to a session.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HookwardenError } from '../../src/index.js';
import { BENCH_DEFAULTS, runBench } from '../../src/measure/index.js';
import { readRecording } from '../../src/measure/replay-file.js';
import { tempDir, writeFile } from '../helpers/fixture.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/sessions/claude-code-session.jsonl', import.meta.url));
const RECORDED = fileURLToPath(new URL('../fixtures/bench/recorded-claude-code.jsonl', import.meta.url));

/** A Claude Code settings file: a JS guard on Bash, a command hook on edits, one on SessionStart. */
const settings = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          {
            type: 'js',
            name: 'bash-guard',
            code: "export default (i) => i.toolInput.command.includes('rm -rf /') ? { decision: 'deny' } : undefined",
          },
        ],
      },
      { matcher: 'Edit|Write', hooks: [{ type: 'command', name: 'edit-check', command: 'cat > /dev/null' }] },
    ],
    SessionStart: [{ hooks: [{ type: 'command', name: 'context', command: 'echo started' }] }],
  },
};

const quick = { warmup: 0, blocks: 3, baselineSamples: 3, onWarning: () => {} };

describe('runBench with replay', () => {
  it('replays every recorded event in order, in whole passes, with cold and warm figures per event name', async () => {
    const rec = readRecording(EXAMPLE);
    const r = await runBench({ ...quick, config: settings, replay: EXAMPLE, iterations: 100 });
    const n = rec.events.length;
    expect(r.event).toBe('replay');
    expect(r.replay).toEqual({
      source: EXAMPLE,
      files: [EXAMPLE],
      sessions: 1,
      events: n,
      passes: Math.ceil(100 / n),
    });
    expect(r.iterations).toBe(r.replay!.passes * n);
    expect(r.overall.count).toBe(r.iterations);
    expect(r.input).toEqual({ digest: rec.digest, varied: false });
    const per = r.perEvent!;
    expect(Object.keys(per).sort()).toEqual(
      ['PostToolUse', 'PostToolUseFailure', 'PreToolUse', 'SessionStart', 'Stop', 'UserPromptSubmit'].sort(),
    );
    const count = (name: string) => rec.events.filter((e) => e.event === name).length;
    for (const [name, e] of Object.entries(per)) {
      expect(e.perSession).toBe(count(name));
      expect(e.dispatch.count).toBe(count(name) * r.replay!.passes);
      expect(e.cold.dispatchMs).toBeGreaterThan(0);
      // The hooks run inside the dispatch: their set's wall time never exceeds it.
      expect(e.hookSet.max).toBeLessThanOrEqual(e.dispatch.max);
      expect(e.histogram.reduce((a, b) => a + b.count, 0)).toBe(e.dispatch.count);
    }
    expect(per.PreToolUse!.canonical).toBe('BeforeTool');
    expect(per.Stop).toMatchObject({ canonical: 'AfterTurn', hooksPerDispatch: 0 });
    expect(per.SessionStart!.hooksPerDispatch).toBe(1);
    // Only the Bash and Edit calls run hooks: 13 + 9 of the 40 tool calls.
    expect(r.perHook['bash-guard']!.count).toBe(13 * r.replay!.passes);
    expect(r.perHook['edit-check']!.count).toBe(9 * r.replay!.passes);
    for (const b of r.blocks) expect(Object.keys(b.perEvent ?? {}).length).toBeGreaterThan(0);
  });

  it('costs a session at the recorded mix and at the published tool-call counts, stage by stage', async () => {
    const r = await runBench({ ...quick, config: settings, replay: EXAMPLE, iterations: 1 });
    const s = r.session!;
    expect(s.sessions).toBe(1);
    expect(s.toolCallsPerSession).toBe(40);
    expect(s.distribution.toolCalls).toEqual({ ...BENCH_DEFAULTS.toolCallsPerSession });
    expect(s.distribution.source).toMatch(
      /^hookwarden's default: .* over 102 Claude Code sessions of one project; docs\/bench\.md/,
    );
    expect(s.distribution.source).not.toMatch(/github|https?:|issues/);
    expect(s.rows.map((row) => [row.label, row.toolCalls])).toEqual([
      ['recorded', 40],
      ['p50', 69],
      ['p90', 423],
    ]);
    // The recorded mix is the sum of count × mean over the events.
    const expected = Object.values(r.perEvent!).reduce((a, e) => a + e.perSession * e.stages.totalMs, 0);
    expect(s.rows[0]!.totalMs).toBeCloseTo(expected, 2);
    for (const row of s.rows) {
      const { queueMs, transportMs, runMs, foldMs } = row.stages;
      expect(queueMs + transportMs + runMs + foldMs).toBeCloseTo(row.totalMs, 2);
    }
    expect(s.rows[2]!.totalMs).toBeCloseTo(s.perSessionMs + 423 * s.perToolCallMs, 1);
    expect(s.rows[2]!.totalMs).toBeGreaterThan(s.rows[1]!.totalMs);
  });

  it('states the cost at the tool-call counts a user gives', async () => {
    const r = await runBench({
      ...quick,
      config: settings,
      replay: EXAMPLE,
      iterations: 1,
      toolCallsPerSession: { median: 25, tail: 176 },
    });
    expect(r.session!.rows.map((row) => [row.label, row.toolCalls])).toEqual([
      ['recorded', 40],
      ['median', 25],
      ['tail', 176],
    ]);
    expect(r.session!.distribution.source).toMatch(/^given/);
  });
});

describe('runBench with replay: recordings and options', () => {
  it('replays a file that Claude Code itself wrote through the documented recording hook', async () => {
    const r = await runBench({ ...quick, config: settings, replay: RECORDED, iterations: 1 });
    expect(Object.keys(r.perEvent!)).toEqual(['SessionStart', 'UserPromptSubmit']);
    expect(r.perHook.context!.count).toBe(r.replay!.passes);
    expect(r.session!.note).toMatch(/no tool calls/);
  });

  it('stops at a line it cannot dispatch, naming the file and line, before anything is measured', async () => {
    const path = writeFile(
      join(tempDir('hw-replay-bad-'), 's.jsonl'),
      `${JSON.stringify({ hook_event_name: 'Stop' })}\n${JSON.stringify({ hook_event_name: 'NoSuchEvent' })}\n`,
    );
    const run = runBench({ ...quick, config: settings, replay: path });
    await expect(run).rejects.toThrow(HookwardenError);
    await expect(run).rejects.toThrow(`${path}:2: `);
    await expect(run).rejects.toMatchObject({ code: 'unknown_event' });
  });

  it('takes either an event or a replay, and a tool-call distribution only with a replay', async () => {
    await expect(runBench({ config: settings, event: 'Stop', replay: EXAMPLE })).rejects.toThrow(
      /give one of them/,
    );
    await expect(runBench({ config: settings })).rejects.toThrow(/event: expected an event name \(or replay/);
    await expect(runBench({ config: settings, replay: EXAMPLE, input: {} })).rejects.toThrow(
      'input and replay: give one; a replayed line is its own input',
    );
    await expect(
      runBench({ config: settings, event: 'Stop', toolCallsPerSession: { p50: 1 } }),
    ).rejects.toThrow(/toolCallsPerSession: only with replay/);
    await expect(
      runBench({ config: settings, replay: EXAMPLE, toolCallsPerSession: { p50: -1 } }),
    ).rejects.toMatchObject({ code: 'invalid_options' });
  });
});
