// The QuickJS lane sends each hook's spec (source, limits) to a worker once and then refers to it by
// key; a worker that dropped a spec answers `missing` and the lane sends the task again with it.
// Real worker threads; a spec capacity of 1 makes the worker drop specs.
import { describe, expect, it } from 'vitest';
import { TEXT_CAPS } from '../../src/config/defaults.js';
import type { JsHookSpec, JsTask } from '../../src/contract/js-task.js';
import { JsLane } from '../../src/pool/js-lane.js';

const spec = (name: string, answer: string): JsHookSpec => ({
  key: `key-${name}`,
  id: name,
  type: 'js',
  scope: 'user',
  onError: 'skip',
  code: `export default () => ({ additionalContext: '${answer}' })`,
  filename: `${name}.js`,
  memoryBytes: 8 << 20,
  maxOutputBytes: 65536,
  deadlineMs: 5000,
  caps: TEXT_CAPS,
});

const task = (s: JsHookSpec): JsTask => ({
  event: 'BeforeTool',
  inputJson: JSON.stringify({
    event: 'BeforeTool',
    sessionId: 's',
    cwd: '/',
    timestamp: '2026-11-29T12:00:00Z',
  }),
  nowMs: 0,
  hooks: [s.key],
  tenant: undefined,
  maxInputBytes: 1 << 20,
  submittedAt: 0,
});

describe('the QuickJS lane and hook specs', () => {
  it('sends a task again with its spec when the worker no longer holds it', async () => {
    const closing = new AbortController();
    const lane = new JsLane(
      { threads: 1, heapCeilingBytes: 64 << 20, backstopGraceMs: 1000, workerSpecCapacity: 1 },
      closing.signal,
    );
    try {
      const a = spec('a', 'from a');
      const b = spec('b', 'from b');
      const answers: unknown[] = [];
      // a, b (the worker drops a), a again: the lane believes the worker holds a, the worker does not.
      for (const s of [a, b, a, b]) {
        const r = await lane.run({ task: task(s), specs: [s] });
        if (!r.ran) throw new Error(r.error.message);
        const answer = r.value.outcomes[0]!.answer;
        answers.push(answer.kind === 'output' ? answer.output?.additionalContext : answer);
      }
      expect(answers).toEqual(['from a', 'from b', 'from a', 'from b']);
      const stats = (await lane.stats()) as { missingSpecs: number; tasksRun: number };
      expect([stats.missingSpecs, stats.tasksRun]).toEqual([2, 4]);
    } finally {
      closing.abort();
      await lane.close();
    }
  });

  it("takes a run's turn under the run options' tenant, not the task's", async () => {
    const closing = new AbortController();
    // Tenant "full" may queue nothing and run nothing: its hooks are refused at once (queue_full).
    const lane = new JsLane(
      {
        threads: 1,
        heapCeilingBytes: 64 << 20,
        backstopGraceMs: 1000,
        tenantLimits: (t) => (t === 'full' ? { maxConcurrent: 0, maxQueued: 0 } : {}),
      },
      closing.signal,
    );
    try {
      const a = spec('a', 'from a');
      const refused = await lane.run(
        { task: { ...task(a), tenant: 'other' }, specs: [a] },
        { tenant: 'full' },
      );
      expect(refused).toMatchObject({
        ran: false,
        error: { code: 'queue_full', details: { tenant: 'full' } },
      });
      const ran = await lane.run({ task: { ...task(a), tenant: 'full' }, specs: [a] }, { tenant: 'other' });
      expect(ran.ran).toBe(true);
    } finally {
      closing.abort();
      await lane.close();
    }
  });
});
