import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import {
  type EvaluatorContext,
  type EvaluatorHook,
  type Evaluators,
  type EvaluatorType,
  type ExecutorOptions,
  type HookEvaluator,
  HookwardenError,
  type HttpHookReport,
  isHookwardenError,
} from '../../src/index.js';

// The built copy is loaded by path at run time: dist/ does not exist yet when CI typechecks.
const BUILT = new URL('../../dist/src/contract/hookwarden-error.js', import.meta.url).href;
const builtCopy = (await import(BUILT)) as typeof import('../../src/contract/hookwarden-error.js');

describe('the public API', () => {
  it('is the documented set of names (fold internals stay inside)', () => {
    expect(Object.keys(api).sort()).toEqual([
      'DEFAULTS',
      'DEFAULT_EVENTS',
      'ERROR_CODES',
      'EVENT_ALIASES',
      'HookwardenError',
      'configFileSchema',
      'createExecutor',
      'hookInputSchema',
      'hookOutputSchema',
      'hookSpecSchema',
      'hooksJsonSchema',
      'isHookwardenError',
      'validateConfig',
    ]);
  });

  it('names the types of http, prompt and agent hooks (checked by the typecheck of the tests)', () => {
    const types: EvaluatorType[] = ['prompt', 'agent'];
    const evaluator: HookEvaluator = (hook: EvaluatorHook, _input, ctx: EvaluatorContext) =>
      types.includes(hook.type) && !ctx.signal.aborted ? { decision: 'allow' } : undefined;
    const evaluators: Evaluators = { prompt: evaluator };
    const options: ExecutorOptions = {
      evaluators,
      allowedHttpHookUrls: ['https://hooks.example.com/*'],
      httpHookAllowedEnvVars: ['TEAM_NAME'],
    };
    const report: HttpHookReport = { file: 'f', path: 'p', event: 'BeforeTool', url: 'u', allowedBy: 'a' };
    expect([options.evaluators?.prompt, report.allowedBy]).toEqual([evaluator, 'a']);
  });
});

describe('isHookwardenError', () => {
  it('recognises a HookwardenError from another copy of the package, where instanceof does not', () => {
    const other = new builtCopy.HookwardenError('invalid_input', 'from the other copy');
    expect(other instanceof HookwardenError).toBe(false);
    expect(isHookwardenError(other)).toBe(true);
    expect(isHookwardenError(new HookwardenError('closed', 'x'))).toBe(true);
    expect(isHookwardenError(new Error('plain'))).toBe(false);
    expect(isHookwardenError({ code: 'closed', message: 'lookalike' })).toBe(false);
    expect(isHookwardenError(null)).toBe(false);
  });
});
