// Fast path: dispatches for which no hook matches. Goal: ≥ 500 000 dispatches/s in-process.
// Baseline in the same run: an async function that returns a constant result (the floor of any
// promise-returning API).
import { createExecutor } from '../src/index.js';
import { fmt, fmtRate, interleavedThroughput, type ScenarioReport } from './harness.js';

export async function run(quick = false): Promise<ScenarioReport> {
  const executor = await createExecutor({
    config: {
      hooks: {
        BeforeTool: [{ matcher: 'Bash', hooks: [{ argv: ['/bin/true'] }] }],
        SessionStart: [{ hooks: [{ argv: ['/bin/true'] }] }],
      },
    },
    onWarning: () => {},
  });
  const input = {
    sessionId: 's',
    cwd: '/',
    timestamp: '2026-11-29T00:00:00Z',
    toolName: 'Read',
    toolInput: { file_path: 'a' },
  };
  const constant = { event: 'BeforeTool', decision: 'passthrough', hooks: [] };
  try {
    const r = await interleavedThroughput(
      {
        'async baseline': async () => constant,
        'no hooks for the event': () => executor.dispatch('AfterCompact', input),
        'hooks, matcher misses': () => executor.dispatch('BeforeTool', input),
      },
      { blockOps: quick ? 2_000 : 200_000, blocks: quick ? 2 : 7 },
    );
    const base = r['async baseline']!.median;
    const rows = Object.entries(r).map(
      ([name, v]) =>
        `| ${name} | ${fmtRate(v.median)} | ${fmtRate(v.min)}–${fmtRate(v.max)} | ${fmt(base / v.median, 2)}× |`,
    );
    const worst = Math.min(r['no hooks for the event']!.median, r['hooks, matcher misses']!.median);
    return {
      title: 'Fast path (no hook matches)',
      markdown: [
        '| variant | dispatches/s (median of blocks) | range | cost vs baseline |',
        '|---|---|---|---|',
        ...rows,
      ].join('\n'),
      goals: [
        `fast path ≥ 500 000 dispatches/s: slowest variant ${fmtRate(worst)}/s — ${worst >= 500_000 ? 'met' : 'NOT met'}`,
      ],
    };
  } finally {
    await executor.close();
  }
}
