// A finished run's figures as the BenchResult `--json` prints: the first (or only) run's series at
// the top level; with `isolation`, one summary per level; with a replay, the recording and the
// session cost; and what describes the run (build, config, hooks, input, machine).
import type { IsolationLevelInfo } from '../executor/isolation-levels.js';
import type { ConfigSource } from '../executor/options.js';
import type { BenchOptions, ResolvedBenchOptions } from './bench-options.js';
import {
  BENCH_SCHEMA,
  type BenchResult,
  type ConfiguredHook,
  type IsolationRun,
  type LatencySummary,
  type SessionCost,
} from './bench-result.js';
import type { BenchRun } from './bench-run.js';
import { describeBuild, describeInput } from './describe-run.js';
import { describeMachine } from './machine.js';
import type { Recording } from './replay-file.js';
import type { RunConditions } from './run-conditions.js';
import { sessionCost, TOOL_CALLS_SOURCE } from './session-cost.js';
import { benchWarnings, securityWarnings } from './warnings.js';

/** One executor's run: its dispatches, the hooks it was configured with, and its isolation level. */
export interface FinishedRun {
  readonly run: BenchRun;
  readonly hooks: ConfiguredHook[];
  readonly level: IsolationLevelInfo | undefined;
}

function labels(sources: ConfigSource | readonly ConfigSource[] | undefined): string[] {
  if (sources === undefined) return [];
  const list: readonly ConfigSource[] = Array.isArray(sources) ? sources : [sources as ConfigSource];
  return list.map((s) =>
    typeof s === 'string' ? s : typeof s.path === 'string' && !('hooks' in s) ? s.path : '<inline>',
  );
}

interface Assembly {
  options: BenchOptions;
  o: ResolvedBenchOptions;
  runs: readonly FinishedRun[];
  levels: readonly IsolationLevelInfo[] | undefined;
  recording: Recording | undefined;
  perSession: ReadonlyMap<string, number>;
  iterations: number;
  startedAt: string;
  conditions: RunConditions;
}

function figures(a: Assembly, f: FinishedRun) {
  const summary = f.run.recorder.summarize(f.run.durationMs);
  const perEvent = f.run.recorder.events.summarize(a.perSession);
  const session: SessionCost | undefined =
    a.recording === undefined
      ? undefined
      : sessionCost(
          perEvent,
          a.recording.sessions.length,
          a.o.toolCallsPerSession,
          a.options.toolCallsPerSession === undefined
            ? TOOL_CALLS_SOURCE
            : 'given (--tool-calls / toolCallsPerSession)',
        );
  return { summary, perEvent, session };
}

function isolationRuns(a: Assembly, all: ReturnType<typeof figures>[]): IsolationRun[] {
  const first = all[0]?.summary.overall.p50 ?? 0;
  return a.levels!.map((level) => {
    const i = a.runs.findIndex((r) => r.level === level);
    if (i === -1)
      return {
        level: level.level,
        available: false,
        detail: level.detail,
        ...(level.fix ? { fix: level.fix } : {}),
      };
    const { summary, session } = all[i]!;
    const perHook: Record<string, LatencySummary> = Object.create(null);
    for (const [id, h] of Object.entries(summary.perHook)) {
      const { count, p50, p90, p99, p999, max, mean } = h;
      perHook[id] = { count, p50, p90, p99, p999, max, mean };
    }
    return {
      level: level.level,
      available: true,
      detail: level.detail,
      hooks: a.runs[i]!.hooks.map((h) => ({ id: h.id, isolation: h.isolation })),
      overall: summary.overall,
      perHook,
      stages: summary.stages.overall,
      vsFirst: first > 0 ? Math.round((summary.overall.p50 / first) * 1000) / 1000 : null,
      ...(session === undefined ? {} : { session }),
    };
  });
}

export function assembleResult(a: Assembly): BenchResult {
  const { options, o, recording } = a;
  const all = a.runs.map((f) => figures(a, f));
  const { summary, perEvent, session } = all[0]!;
  const first = a.runs[0]!;
  return {
    schema: BENCH_SCHEMA,
    hookwarden: describeBuild(),
    ...(options.url !== undefined ? { url: options.url } : {}),
    config: labels(options.config),
    policy: labels(options.policy),
    event: recording === undefined ? o.event! : 'replay',
    hooks: first.hooks,
    input:
      recording === undefined
        ? describeInput(o.input, o.redactInput, o.varyInput)
        : { digest: recording.digest, varied: o.varyInput },
    iterations: a.iterations,
    concurrency: o.concurrency,
    tenants: o.tenants,
    warmup: o.warmup,
    durationMs: Math.round(first.run.durationMs * 1000) / 1000,
    ...summary,
    perEvent,
    ...(recording === undefined
      ? {}
      : {
          replay: {
            source: recording.source,
            files: [...recording.files],
            sessions: recording.sessions.length,
            events: recording.events.length,
            passes: a.iterations / recording.events.length,
          },
          ...(session === undefined ? {} : { session }),
        }),
    ...(a.levels === undefined ? {} : { isolation: isolationRuns(a, all) }),
    warnings: [
      ...securityWarnings(summary.perHook),
      ...benchWarnings({ ...summary, concurrency: o.concurrency }),
    ],
    machine: describeMachine(),
    conditions: a.conditions,
    startedAt: a.startedAt,
  };
}
