// A hook's raw answer as a HookAnswer, for the hooks whose answer is a value rather than a process's
// exit: an http hook's JSON body, a trusted callback's or an evaluator's return value. The one place
// these go through the output parser, so they are read exactly like a command hook's JSON stdout.
import { hookError } from '../contract/error-codes.js';
import type { HookAnswer } from '../contract/fold.js';
import { type AnswerContext, parseHookOutput } from '../contract/parse-output.js';
import type { LaneResult } from '../pool/pool.js';
import type { TrustedRun } from '../pool/trusted-lane.js';
import { refusedAnswer } from './refused.js';

export interface AnswerTiming {
  readonly latencyMs: number;
  readonly queuedMs: number;
}

/** Validates a raw answer (`undefined`/`null`: no opinion) for `event` (canonical name). */
export function outputAnswer(
  raw: unknown,
  event: string,
  timing: AnswerTiming,
  context: AnswerContext,
): HookAnswer {
  const parsed = parseHookOutput(raw ?? undefined, event, context);
  if (!parsed.ok) return { kind: 'failure', error: hookError('invalid_output', parsed.message), ...timing };
  return { kind: 'output', output: parsed.output, unknownFields: parsed.unknownFields, ...timing };
}

/** The answer of an in-process function run on the trusted lane (a trusted callback, an evaluator). */
export function inProcessAnswer(
  lane: LaneResult<TrustedRun<unknown>>,
  startedAt: number,
  deadlineMs: number,
  event: string,
  context: AnswerContext,
): HookAnswer {
  if (!lane.ran) return refusedAnswer(lane, performance.now() - startedAt);
  const { value } = lane;
  const timing = { latencyMs: performance.now() - startedAt, queuedMs: 0 };
  if (value.kind === 'timeout')
    return {
      kind: 'failure',
      error: hookError('timeout', `no answer within ${deadlineMs} ms`, { deadlineMs }),
      ...timing,
    };
  if (value.kind === 'threw') {
    const message =
      value.error instanceof Error ? `${value.error.name}: ${value.error.message}` : String(value.error);
    return { kind: 'failure', error: hookError('runtime_error', message), ...timing };
  }
  return outputAnswer(value.value, event, timing, context);
}
