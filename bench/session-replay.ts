// What examples/hooks.json adds to an agent's session: the shipped Claude Code session
// (examples/sessions/claude-code-session.jsonl: 87 events, 40 tool calls) replayed through
// `runBench({ replay, isolation: 'all' })`, every isolation level the host supports interleaved in
// one run, the baselines measured between the blocks. The session cost at the recorded mix and at
// the published 69 and 423 tool calls per session (docs/bench.md#the-session-cost), split by stage.
// Goal (informational, the figure the issue asked for): a 69-tool-call session at process isolation
// costs ≤ 1 s of hooks on this machine.
import { fileURLToPath } from 'node:url';
import { runBench } from '../src/measure/index.js';
import { fmt, type ScenarioReport } from './harness.js';

const example = (path: string) => fileURLToPath(new URL(`../../examples/${path}`, import.meta.url));

export async function run(quick = false): Promise<ScenarioReport> {
  const r = await runBench({
    config: example('hooks.json'),
    root: example('.'),
    replay: example('sessions/claude-code-session.jsonl'),
    isolation: 'all',
    iterations: quick ? 1 : 87 * 20,
    blocks: quick ? 1 : 20,
    baselineSamples: quick ? 2 : 200,
    onWarning: () => {},
  });
  const s = (ms: number) => fmt(ms / 1000, 3);
  const rows = r.isolation!.flatMap((l) => {
    if (!l.available || l.session === undefined) return [`| ${l.level} | unavailable: ${l.detail} | | | | |`];
    const [rec, p50, p90] = l.session.rows;
    const st = rec!.stages;
    const share = (v: number) => `${Math.round((v / rec!.totalMs) * 100)}%`;
    return [
      `| ${l.level} | ${s(rec!.totalMs)} | ${s(p50!.totalMs)} | ${s(p90!.totalMs)} | ${share(st.queueMs)} / ${share(st.transportMs)} / ${share(st.runMs)} / ${share(st.foldMs)} | ${fmt(l.vsFirst ?? 0, 2)}× |`,
    ];
  });
  const p50 = r.session!.rows[1]!.totalMs / 1000;
  const b = r.baselines;
  return {
    title: 'Session replay: what examples/hooks.json adds to a Claude Code session',
    markdown: [
      `${r.replay!.passes} pass${r.replay!.passes === 1 ? '' : 'es'} through the shipped session (${r.replay!.events} events, ${r.session!.toolCallsPerSession} tool calls), ${r.iterations} dispatches per level; baselines in the same run: spawn('/bin/true') p50 ${fmt(b.spawnTrue.p50)} ms, Piscina echo ${fmt(b.piscinaEcho.p50)} ms, QuickJS eval ${fmt(b.quickJsEval.p50)} ms.`,
      '',
      '| isolation | recorded session (s) | 69 tool calls (s) | 423 tool calls (s) | queue / spawn+isolate / hook run / fold | dispatch p50 vs process |',
      '|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
    goals: [
      `69-tool-call session at process isolation ≤ 1 s of hooks: ${fmt(p50, 3)} s — ${p50 <= 1 ? 'met' : 'NOT met'}`,
    ],
  };
}
