// A fork bomb in one tenant's hook, another tenant's command hook beside it: the quiet tenant's
// `/bin/true` command-hook latency while tenant "bomb" keeps `f(){ f|f& }; f` running (two bombs in
// flight, each stopped at its deadline and started again), against its latency alone, in interleaved
// blocks of the same run. Both tenants' hooks run in namespace isolation, as `serve` runs tenants.
// Goal (issue 37): the quiet tenant's p99 beside the bomb ≤ 2× its p99 alone.
import { namespaceSupport } from '../sandbox/command/namespace-profile.js';
import { createExecutor } from '../src/index.js';
import { BENCH_INPUT, fmt, type ScenarioReport, stats } from './harness.js';

const BOMB = 'f(){ f|f& }; f';
/** Bombs in flight during a bomb block. */
const BOMBS = 2;

export async function run(quick = false): Promise<ScenarioReport> {
  const ns = namespaceSupport('native');
  if (!ns.ok) {
    return {
      title: 'A fork bomb in another tenant',
      markdown: `Not measured: ${ns.reason} (${ns.hint}).`,
      goals: ['quiet tenant p99 beside a fork bomb ≤ 2× alone: not measured'],
    };
  }
  const on = (hook: object) => ({
    hooks: { BeforeTool: [{ hooks: [{ isolation: 'namespace', ...hook }] }] },
  });
  const executor = await createExecutor({
    config: { tenants: { quiet: on({ argv: ['/bin/true'] }), bomb: on({ command: BOMB, timeoutMs: 2000 }) } },
    limits: { killGraceMs: 100 },
    onWarning: () => {},
  });
  const quietCall = () => executor.dispatch('BeforeTool', BENCH_INPUT, { tenant: 'quiet' });
  const samples = { alone: [] as number[], bomb: [] as number[] };
  let bombCap = '';
  const blocks = quick ? 2 : 12;
  const perBlock = quick ? 10 : 60;
  try {
    for (let i = 0; i < 20; i++) await quietCall();
    for (let b = 0; b < blocks; b++) {
      // Alternate which phase comes first, so that drift hits both alike.
      for (const phase of b % 2 === 0 ? (['alone', 'bomb'] as const) : (['bomb', 'alone'] as const)) {
        const stop = new AbortController();
        const bombs: Promise<void>[] = [];
        if (phase === 'bomb') {
          for (let k = 0; k < BOMBS; k++) {
            bombs.push(
              (async () => {
                while (!stop.signal.aborted) {
                  const r = await executor.dispatch('BeforeTool', BENCH_INPUT, {
                    tenant: 'bomb',
                    signal: stop.signal,
                  });
                  const cap = r.hooks[0]?.processCap;
                  if (cap !== undefined)
                    bombCap = `${cap.mechanism}${cap.max === undefined ? '' : `, ${cap.max}`}`;
                }
              })(),
            );
          }
          // Let the bombs reach their cap before measuring.
          await new Promise((r) => setTimeout(r, 500));
        }
        for (let i = 0; i < perBlock; i++) {
          const t = performance.now();
          await quietCall();
          samples[phase].push(performance.now() - t);
        }
        stop.abort();
        await Promise.all(bombs);
      }
    }
  } finally {
    await executor.close();
  }
  const alone = stats(samples.alone);
  const bomb = stats(samples.bomb);
  const ratio = bomb.p99 / alone.p99;
  return {
    title: 'A fork bomb in another tenant',
    markdown: [
      `Tenant "bomb" runs \`${BOMB}\` in ${BOMBS} namespace hooks at a time (deadline 2 s, started again at once; process cap: ${bombCap || 'none reported'}); tenant "quiet" runs \`/bin/true\` hooks one at a time, in ${blocks} blocks of ${perBlock} beside the bombs and as many alone, interleaved.`,
      '',
      '| quiet tenant | n | p50 ms | p90 ms | p99 ms |',
      '|---|---|---|---|---|',
      `| alone | ${alone.n} | ${fmt(alone.p50)} | ${fmt(alone.p90)} | ${fmt(alone.p99)} |`,
      `| beside the fork bombs | ${bomb.n} | ${fmt(bomb.p50)} | ${fmt(bomb.p90)} | ${fmt(bomb.p99)} |`,
    ].join('\n'),
    goals: [
      `quiet tenant's command-hook p99 beside a fork bomb ≤ 2× its p99 alone: ${fmt(ratio, 2)}× (p50 ${fmt(bomb.p50 / alone.p50, 2)}×) — ${ratio <= 2 ? 'met' : 'NOT met'}`,
    ],
  };
}
