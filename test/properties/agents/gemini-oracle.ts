// Gemini CLI 0.61.0's BeforeTool (@google/gemini-cli-core 0.61.0, dist/src): hooks/hookRunner.js
// `executeCommandHook` (stdout, else stderr, trimmed, at any exit code; JSON parsed, and parsed again
// when it is a string; an object is the output, another JSON value none; other text through
// `convertPlainTextToHookOutput`: an allow at exit 0 and 1, a deny at any other code, a kill read as
// 0), hooks/types.js `DefaultHookOutput` (`isBlockingDecision`: "block" or "deny"; `isAskDecision`;
// `shouldStopExecution`: continue false), hooks/hookAggregator.js `mergeWithOrDecision`,
// scheduler/hook-utils.js `evaluateBeforeToolHook` (a stop or a block ends the call; an ask forces
// the confirmation; an allow is only the default, the usual policy still applies) and
// hooks/hookPlanner.js `matchesContext` (no matcher, "" or "*": all; else `new RegExp(m).test(tool)`,
// an invalid one an exact name).
import { type Call, type HookRun, type Oracle, tryJson, type Verdict } from './oracle.js';

/** What executeCommandHook makes of the run: an output object, or none. */
function output(run: HookRun): Record<string, unknown> | undefined {
  const text = run.stdout.trim() || run.stderr.trim();
  if (text === '') return undefined;
  const first = tryJson(text);
  if (first !== undefined) {
    let parsed = first.value;
    if (typeof parsed === 'string') {
      const second = tryJson(parsed);
      if (second === undefined) return plain(text, run.exitCode);
      parsed = second.value;
    }
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  }
  return plain(text, run.exitCode);
}

/** DefaultHookOutput's reading at BeforeTool (evaluateBeforeToolHook). */
function verdict(o: Record<string, unknown> | undefined): Verdict {
  if (o === undefined) return { decision: 'none', why: 'no-output' };
  if (o.continue === false) return { decision: 'block', why: 'stop' };
  if (o.decision === 'block' || o.decision === 'deny') return { decision: 'block', why: 'deny' };
  if (o.decision === 'ask') return { decision: 'ask', why: 'ask' };
  return { decision: 'none', why: 'allow' };
}

/** convertPlainTextToHookOutput(text, exitCode || 0). */
function plain(text: string, exitCode: number | null): Record<string, unknown> {
  const code = exitCode || 0;
  if (code === 0 || code === 1) return { decision: 'allow', systemMessage: text };
  return { decision: 'deny', reason: text };
}

export const GEMINI: Oracle = {
  title: 'Gemini CLI 0.61.0',
  source:
    '@google/gemini-cli-core 0.61.0: hookRunner.executeCommandHook, DefaultHookOutput, hookAggregator.mergeWithOrDecision, scheduler/hook-utils.evaluateBeforeToolHook, hookPlanner.matchesContext',
  read(_event: string, run: HookRun): Verdict {
    const v = verdict(output(run));
    // hookwarden blocks on every exit 2: where Gemini reads no deny there, that is a stricter row.
    return run.exitCode === 2 && v.decision !== 'block' ? { ...v, why: 'exit2-not-a-deny' } : v;
  },
  runs(_event: string, matcher: string | undefined, call: Call): boolean {
    if (matcher === undefined || call.tool === undefined) return true;
    const m = matcher.trim();
    if (m === '' || m === '*') return true;
    try {
      return new RegExp(m).test(call.tool);
    } catch {
      return m === call.tool;
    }
  },
};
