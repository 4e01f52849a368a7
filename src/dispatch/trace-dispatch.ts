// A traced dispatch (docs/library.md "Traces"): its span starts where the dispatch starts and ends
// with its verdict; once it has answered, each hook record gets a child span, timed from when its lane
// took it to when its answer came back (run.ts notes those times, only when traced). Without a tracer
// nothing here runs: the executor's context has no `tracing` and the dispatch takes no detour.
import { auditRecordOf } from '../audit/audit-log.js';
import type { Interval } from '../audit/span-times.js';
import type { DispatchSpan, Tracing } from '../audit/tracing.js';
import { isHookwardenError } from '../contract/hookwarden-error.js';
import type { DispatchResult } from '../contract/result.js';
import type { RegisteredHook } from '../registry/registry.js';
import type { DispatchOptions } from './context.js';

/** What a traced dispatch's run (run.ts) tells its spans. */
export interface TracedRun {
  /** Hooks in the order their answers were folded (one per record). */
  readonly folded: readonly RegisteredHook[];
  /** When each folded answer's lane took it and its answer came back. */
  readonly foldedTimes: readonly (Interval | undefined)[] | undefined;
  isolationOf(hook: RegisteredHook): string | undefined;
}

/** What a traced dispatch's stages share: its span, and the run once the hooks start. */
export class DispatchTrace {
  readonly span: DispatchSpan;
  run: TracedRun | undefined;

  constructor(span: DispatchSpan) {
    this.span = span;
  }
}

/** One span per hook record that ran (the audit record's fields), in the order of the result. */
function hookSpans(trace: DispatchTrace, result: DispatchResult, tenant: string | undefined): void {
  const run = trace.run;
  if (run === undefined || !trace.span.recording) return;
  const time = new Date().toISOString();
  for (const [i, h] of result.hooks.entries()) {
    if (h.outcome === 'not-run') continue;
    const def = run.folded[i];
    const record = auditRecordOf(result.event, tenant, h, def?.deadlineMs ?? 0, time);
    trace.span.hook(record, def === undefined ? undefined : run.isolationOf(def), run.foldedTimes?.[i]);
  }
}

/** Runs `f`; a tracer or context that throws (the caller's SDK) never fails a dispatch. */
function quietly<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** Runs `steps` (the dispatch) under a span of its own; the span ends however it ends. */
export async function tracedDispatch(
  tracing: Tracing,
  options: DispatchOptions,
  steps: (trace: DispatchTrace | undefined) => Promise<DispatchResult>,
): Promise<DispatchResult> {
  const tenant = typeof options?.tenant === 'string' ? options.tenant : undefined;
  const span = quietly(() => tracing.startDispatch(options?.traceContext));
  const trace = span === undefined ? undefined : new DispatchTrace(span);
  let result: DispatchResult;
  try {
    result = await steps(trace);
  } catch (err) {
    quietly(() => trace?.span.fail(isHookwardenError(err) ? err.code : 'internal_error', tenant));
    throw err;
  }
  if (trace === undefined) return result;
  quietly(() => hookSpans(trace, result, tenant));
  quietly(() =>
    trace.span.end({
      event: result.event,
      tenant,
      decision: result.decision,
      decidedBy: result.decidedBy,
      interrupted: result.interrupted === true,
      hooks: result.hooks.length,
    }),
  );
  return result;
}
