// One hook's series in a bench run: its latency and queue time, what did not run, its failures by
// error code, and how each failure resolved. A failure denied the call when the dispatch's verdict
// is a deny decided by this very hook (its `onError: "deny"`, a tampered policy pack); otherwise the
// call went on without the hook's verdict: it failed open. On an event that can deny, that is a
// guard that did not guard.
import type { DispatchResult, HookRecord } from '../contract/result.js';
import type { HookType } from '../contract/types.js';
import type { HookFailures, HookSummary } from './bench-result.js';
import { Histogram } from './histogram.js';
import { roundMs, summarizeLatency } from './latency-summary.js';

export class HookSeries {
  readonly type: HookType;
  readonly latency = new Histogram();
  readonly queued = new Histogram();
  notRun = 0;
  readonly errors: Record<string, number> = Object.create(null);
  readonly failures: HookFailures = {
    timeouts: 0,
    otherFailures: 0,
    failedOpen: 0,
    denied: 0,
    securityFailures: 0,
  };

  constructor(type: HookType) {
    this.type = type;
  }

  /**
   * One record of a dispatch. `canDeny`: whether the dispatch's event can deny (undefined: unknown,
   * counted as if it could: a failure that cannot be judged is not assumed harmless).
   */
  record(hook: HookRecord, result: DispatchResult, canDeny: boolean | undefined): void {
    if (hook.error !== undefined) {
      const code = hook.error.code;
      this.errors[code] = (this.errors[code] ?? 0) + 1;
      if (code === 'timeout') this.failures.timeouts++;
      else this.failures.otherFailures++;
      if (result.decision === 'deny' && result.decidedBy === hook.id) this.failures.denied++;
      else {
        this.failures.failedOpen++;
        if (canDeny !== false) this.failures.securityFailures++;
      }
    }
    if (hook.outcome === 'not-run') this.notRun++;
    else {
      this.latency.record(hook.latencyMs);
      this.queued.record(hook.queuedMs);
    }
  }

  summarize(): HookSummary {
    return {
      type: this.type,
      ...summarizeLatency(this.latency),
      queuedP50: roundMs(this.queued.valueAtQuantile(0.5)),
      queuedP99: roundMs(this.queued.valueAtQuantile(0.99)),
      notRun: this.notRun,
      errors: { ...this.errors },
      failures: { ...this.failures },
    };
  }
}
