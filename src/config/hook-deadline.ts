// A hook's deadline: its own timeout, else its dialect's default for the event, within the scope's
// declared budget.
import { computeDeadline } from '../contract/budget.js';
import { joinPath } from '../contract/messages.js';
import { runsAdapter } from './adapter-hook.js';
import { DEFAULTS } from './defaults.js';
import type { HookContext } from './hook-context.js';
import { defaultTimeoutMs, type HookKind } from './hook-kind-specs.js';
import type { RawHookSpec } from './schema.js';

/** The deadline of one hook (and its declared budget), with a warning for each value it had to clamp. */
export function deadlineFor(type: HookKind, spec: RawHookSpec, path: string, ctx: HookContext) {
  const { limits } = ctx;
  // The adapter hook `<agent> install` writes sums the timeouts of the hooks it runs: the agent runs
  // it, hookwarden never does (the adapter refuses to run itself), so its timeout is not judged.
  const sink =
    ctx.dialect !== undefined && ctx.dialect !== 'hookwarden' && runsAdapter(spec)
      ? ctx.sink.quiet()
      : ctx.sink;
  // A command or http hook's default is its dialect's (Claude Code: 600 s, 30 s on UserPromptSubmit, …).
  let timeoutMs: number = defaultTimeoutMs(type, ctx.dialect ?? 'hookwarden', ctx.event.name);
  if (spec.timeout !== undefined) {
    timeoutMs = Math.round(spec.timeout * 1000);
    if (spec.timeout > DEFAULTS.suspiciousTimeoutSeconds) {
      sink.warn(
        joinPath(path, 'timeout'),
        `"timeout" is in SECONDS: ${spec.timeout} s is ${(spec.timeout / 60).toFixed(1)} minutes. If you meant milliseconds, write "timeoutMs": ${spec.timeout}`,
      );
    }
  } else if (spec.timeoutMs !== undefined) timeoutMs = spec.timeoutMs;
  const key = spec.timeout !== undefined ? 'timeout' : 'timeoutMs';
  const isolate =
    type === 'js'
      ? { max: DEFAULTS.js.maxTimeoutMs, what: 'A JS' }
      : type === 'wasm'
        ? { max: DEFAULTS.wasm.maxTimeoutMs, what: 'A wasm' }
        : undefined;
  if (isolate !== undefined && timeoutMs > isolate.max && spec.budgetMs === undefined) {
    sink.warn(
      joinPath(path, key),
      `${isolate.what} hook's timeout is at most ${isolate.max} ms without a declared budgetMs; ${timeoutMs} ms was clamped`,
    );
    timeoutMs = isolate.max;
  }
  if (timeoutMs > limits.maxDeclaredBudgetMs) {
    // A default above the ceiling is lowered silently; a written value gets a warning.
    if (spec.timeout !== undefined || spec.timeoutMs !== undefined)
      sink.warn(
        joinPath(path, key),
        `timeout ${timeoutMs} ms is above limits.maxDeclaredBudgetMs (${limits.maxDeclaredBudgetMs}) and was clamped`,
      );
    timeoutMs = limits.maxDeclaredBudgetMs;
  }
  const d = computeDeadline({
    timeoutMs,
    budgetMs: spec.budgetMs,
    graceMs: DEFAULTS.budget.graceMs,
    maxDeclaredBudgetMs: limits.maxDeclaredBudgetMs,
  });
  if (d.budgetClamped) {
    sink.warn(
      joinPath(path, 'budgetMs'),
      `declared budget ${spec.budgetMs} ms is above limits.maxDeclaredBudgetMs and was clamped to ${limits.maxDeclaredBudgetMs} ms`,
    );
  }
  return { timeoutMs, budgetMs: d.budgetMs, deadlineMs: d.deadlineMs };
}
