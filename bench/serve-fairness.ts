// Part 3 of the serve scenario: a quiet tenant alone and beside a flooding one, serve defaults (no
// tenant limits but the capped flood's), against each build given (this one, and the build before
// when HOOKWARDEN_BENCH_BEFORE names one), all in interleaved rounds: the quiet tenant's p99 beside
// the flood against its p99 alone. Goal ≤ 2× for the uncapped flood; keep ≈1× for the capped one.
import type { Pool } from 'undici';
import { fmt, fmtRate, type Stats, stats } from './harness.js';
import { flood, load, post } from './serve-client.js';

export const SLOW_SECONDS = '0.2';
/** The quiet tenants (a JS hook, a command hook) and the two floods (uncapped, capped at 8). */
const QUIET_TENANTS = ['quiet', 'quietCommand'] as const;
const FLOODS = ['flood', 'floodCapped'] as const;
type Phase = 'alone' | (typeof FLOODS)[number];
const QUIET_C = 4;
const FLOOD_C = 32;

export interface FairTarget {
  readonly label: string;
  readonly url: string;
}

interface Measured {
  readonly quiet: Record<string, Record<Phase, number[]>>;
  /** The quiet hook's own wait for a slot (its result's queuedMs): the scheduling, without the CPU. */
  readonly waits: Record<string, Record<Phase, number[]>>;
  readonly floods: Record<string, { done: number; refused: number; ms: number }>;
}

export async function quietBesideFlood(
  targets: readonly FairTarget[],
  token: (tenant: string) => string,
  pool: (url: string, connections: number) => Pool,
  quick: boolean,
): Promise<{ markdown: string[]; goals: string[] }> {
  const perPhase = quick ? 20 : 1500;
  const rounds = quick ? 1 : 3;
  const measured = new Map<string, Measured>();
  const clients = new Map<string, { quiet: Pool; flood: Pool }>();
  for (const t of targets) {
    clients.set(t.label, { quiet: pool(t.url, QUIET_C), flood: pool(t.url, FLOOD_C) });
    measured.set(t.label, {
      quiet: Object.fromEntries(QUIET_TENANTS.map((q) => [q, { alone: [], flood: [], floodCapped: [] }])),
      waits: Object.fromEntries(QUIET_TENANTS.map((q) => [q, { alone: [], flood: [], floodCapped: [] }])),
      floods: Object.fromEntries(FLOODS.map((f) => [f, { done: 0, refused: 0, ms: 0 }])),
    });
  }
  /** A quiet dispatch; records its hook's queuedMs under `phase` (undefined: warm-up). */
  const quietPost = (target: FairTarget, tenant: string, phase: Phase | undefined) => async () => {
    const text = await post(clients.get(target.label)!.quiet, token(tenant));
    if (phase === undefined) return;
    const queued = (JSON.parse(text) as { hooks: { queuedMs: number }[] }).hooks[0]!.queuedMs;
    measured.get(target.label)!.waits[tenant]![phase].push(queued);
  };
  const beside = async (target: FairTarget, tenant: string, flooder: (typeof FLOODS)[number]) => {
    const c = clients.get(target.label)!;
    const m = measured.get(target.label)!;
    let stop!: () => void;
    const stopped = new Promise<void>((res) => (stop = res));
    const t = performance.now();
    const flooding = flood(() => post(c.flood, token(flooder)), FLOOD_C, stopped);
    // Let the flood fill the command lane before measuring (its first hooks are spawning).
    await load(quietPost(target, tenant, undefined), QUIET_C * 4, QUIET_C);
    m.quiet[tenant]![flooder].push(...(await load(quietPost(target, tenant, flooder), perPhase, QUIET_C)));
    stop();
    const f = await flooding;
    m.floods[flooder]!.done += f.done;
    m.floods[flooder]!.refused += f.refused;
    m.floods[flooder]!.ms += performance.now() - t;
  };
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < targets.length; k++) {
      const target = targets[(r + k) % targets.length]!;
      for (const tenant of QUIET_TENANTS) {
        const phases = [
          async () =>
            measured
              .get(target.label)!
              .quiet[tenant]!.alone.push(
                ...(await load(quietPost(target, tenant, 'alone'), perPhase, QUIET_C)),
              ),
          ...FLOODS.map((f) => () => beside(target, tenant, f)),
        ];
        // Rotate which phase goes first.
        for (let p = 0; p < phases.length; p++) await phases[(r + p) % phases.length]!();
      }
    }
  }

  const rows: string[] = [];
  /** Per build and flood: the command hook's p99 ratio (the goal), and the JS hook's. */
  const ratios = new Map<string, Record<(typeof FLOODS)[number], { command: number; js: number }>>();
  for (const target of targets) {
    const m = measured.get(target.label)!;
    const s = Object.fromEntries(
      QUIET_TENANTS.map((q) => [
        q,
        Object.fromEntries((['alone', ...FLOODS] as Phase[]).map((p) => [p, stats(m.quiet[q]![p])])),
      ]),
    ) as Record<string, Record<Phase, Stats>>;
    const ratio = (q: string, f: (typeof FLOODS)[number]) => s[q]![f].p99 / s[q]!.alone.p99;
    ratios.set(target.label, {
      flood: { command: ratio('quietCommand', 'flood'), js: ratio('quiet', 'flood') },
      floodCapped: { command: ratio('quietCommand', 'floodCapped'), js: ratio('quiet', 'floodCapped') },
    });
    const rate = (f: string) => fmtRate((m.floods[f]!.done / m.floods[f]!.ms) * 1000);
    const wait = (q: string, p: Phase) => fmt(stats(m.waits[q]![p]).p99, 1);
    for (const q of QUIET_TENANTS) {
      const v = s[q]!;
      rows.push(
        `| ${target.label} | ${q === 'quiet' ? 'JS hook' : 'command hook (/bin/true)'} | ${fmt(v.alone.p50)} / ${fmt(v.alone.p99)} (${wait(q, 'alone')}) | ${fmt(v.flood.p50)} / ${fmt(v.flood.p99)} (${wait(q, 'flood')}) | ${fmt(ratio(q, 'flood'), 2)}× | ${fmt(v.floodCapped.p50)} / ${fmt(v.floodCapped.p99)} (${wait(q, 'floodCapped')}) | ${fmt(ratio(q, 'floodCapped'), 2)}× |`,
      );
    }
    rows.push(
      `| ${target.label} | the floods' throughput (429s) | | ${rate('flood')}/s (${m.floods.flood!.refused}) | | ${rate('floodCapped')}/s (${m.floods.floodCapped!.refused}) | |`,
    );
  }
  const markdown = [
    `| build | quiet tenant (concurrency ${QUIET_C}) | p50 / p99 alone | p50 / p99 beside the flood | p99 ratio | p50 / p99 beside the capped flood | p99 ratio |`,
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `The flood: another tenant at concurrency ${FLOOD_C}, each dispatch a \`sleep ${SLOW_SECONDS}\` command hook. "The flood" has no tenant limits (serve's defaults: since the fair share, it may use the whole command lane of 16 slots while alone, and leaves a recently active tenant its share). "The capped flood" is the same tenant with \`limits.maxConcurrent: 8\` (half the lane), as an operator would set it. A flood's dispatches answered 429 (a full queue) are counted in brackets; that caller waits Retry-After. ${perPhase.toLocaleString('en-US')} quiet dispatches per phase, ${rounds} round(s); builds, tenants and phases interleaved (rotating which goes first). Times in ms; in brackets the p99 of the quiet hook's own wait for a slot (its result's \`queuedMs\`): the scheduling alone, without the machine's CPU contention.`,
  ];
  const mine = ratios.get(targets[0]!.label)!;
  const goals = [
    `quiet tenant's command-hook p99 beside a flooding tenant ≤ 2× its p99 alone (serve defaults, no tenant limits): ${fmt(mine.flood.command, 2)}× (JS hook ${fmt(mine.flood.js, 2)}×) — ${mine.flood.command <= 2 ? 'met' : 'NOT met'}`,
    `the same with the flooding tenant capped at maxConcurrent 8, kept ≈1×: ${fmt(mine.floodCapped.command, 2)}× (JS hook ${fmt(mine.floodCapped.js, 2)}×)`,
  ];
  for (const t of targets.slice(1)) {
    const w = ratios.get(t.label)!;
    goals.push(
      `(${t.label}: command hook ${fmt(w.flood.command, 2)}× beside the flood, ${fmt(w.floodCapped.command, 2)}× beside the capped one; JS hook ${fmt(w.flood.js, 2)}× and ${fmt(w.floodCapped.js, 2)}×)`,
    );
  }
  return { markdown, goals };
}
