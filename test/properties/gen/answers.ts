// What a generated hook answers, in every vocabulary hookwarden reads: its own fields, Claude
// Code's (`hookSpecificOutput.permissionDecision`, `updatedInput`, `decision: "block"`) and
// FreeCode's (`block`, `modifiedInput`). One source, run by JS hooks in the isolate and here for
// command, http and trusted hooks, so every hook type answers alike.
import fc from 'fast-check';
import { jsonValue, objectOf, shortString, TOKENS } from './inputs.js';

type Decision = 'allow' | 'deny' | 'ask' | 'defer';

export type Answer =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'decide';
      readonly decision: Decision;
      readonly shape: 'hookwarden' | 'claude-code' | 'freecode';
    }
  | {
      readonly kind: 'rewrite';
      readonly value: Record<string, unknown>;
      readonly shape: 'mutated' | 'updatedInput' | 'specific' | 'modifiedInput';
      readonly decision?: 'allow' | 'ask';
    }
  | { readonly kind: 'stop' }
  | { readonly kind: 'fail'; readonly how: 'throw' | 'invalid' };

/** A hook's behaviour: `hit` when what it saw contains `token` (or always, without one), else `miss`. */
export interface Behaviour {
  readonly token?: string;
  readonly hit: Answer;
  readonly miss: Answer;
}

/**
 * `hwAnswer(answer, input, ccEvent)`: the raw answer object (a `fail` throws or returns an invalid
 * one). `ccEvent` is the event's Claude Code name (`PreToolUse`) for Claude Code's shapes.
 */
export const ANSWER_SOURCE = `function hwAnswer(a, input, ccEvent) {
  switch (a.kind) {
    case 'none': return undefined;
    case 'stop': return { continue: false, stopReason: 'stopped' };
    case 'fail': if (a.how === 'throw') throw new Error('generated failure'); return { decision: 'maybe' };
    case 'decide':
      if (a.shape === 'freecode') return a.decision === 'deny' ? { block: true, reason: 'fc' } : { block: false };
      if (a.shape === 'claude-code') {
        if (ccEvent === 'PreToolUse') return { hookSpecificOutput: { hookEventName: ccEvent, permissionDecision: a.decision, permissionDecisionReason: 'cc' } };
        return a.decision === 'deny' ? { decision: 'block', reason: 'cc' } : { decision: a.decision };
      }
      return { decision: a.decision, reason: 'hw' };
    case 'rewrite': {
      const d = a.decision === undefined ? {} : { decision: a.decision };
      if (typeof input.prompt === 'string' && input.toolInput === undefined) return { mutatedPrompt: JSON.stringify(a.value), ...d };
      if (input.request !== undefined && input.toolInput === undefined) return { mutatedRequest: a.value, ...d };
      if (a.shape === 'updatedInput') return { updatedInput: a.value, ...d };
      if (a.shape === 'modifiedInput') return { modifiedInput: a.value };
      if (a.shape === 'specific') {
        const s = { hookEventName: ccEvent, updatedInput: a.value };
        if (a.decision !== undefined) s.permissionDecision = a.decision;
        return { hookSpecificOutput: s };
      }
      return { mutatedToolInput: a.value, ...d };
    }
  }
  return undefined;
}
function hwClean(v) {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(hwClean);
  const o = Object.create(null);
  for (const k of Object.keys(v)) if (k !== '__proto__' && k !== 'constructor' && k !== 'prototype') o[k] = hwClean(v[k]);
  return o;
}
function hwMade(a0, input) {
  if (a0.kind !== 'rewrite') return undefined;
  // What hookwarden applies: the answer without __proto__/constructor/prototype keys (docs/semantics.md).
  // A prompt rewrite is a string (hwAnswer's JSON text of the value): nothing in it is cleaned (fuzz
  // seed 20261203: a value with a __proto__ key, whose text the oracle had cleaned).
  if (typeof input.prompt === 'string' && input.toolInput === undefined) return [input.toolInput, JSON.stringify(a0.value), input.request];
  const a = { ...a0, value: hwClean(a0.value) };
  if (input.request !== undefined && input.toolInput === undefined) return [input.toolInput, input.prompt, a.value];
  const t = input.toolInput;
  // FreeCode's patch (cleaned) is merged over what the hook saw, whose own keys stay.
  const v = a.shape === 'modifiedInput' && t !== null && typeof t === 'object' && !Array.isArray(t) ? Object.assign(Object.create(null), t, a.value) : a.value;
  return [v, input.prompt, input.request];
}
function hwHit(b, seen) {
  return b.token === undefined || JSON.stringify(seen).includes(b.token);
}`;

const fns = new Function(`${ANSWER_SOURCE}; return { hwAnswer, hwMade, hwHit };`)() as {
  hwAnswer(a: Answer, input: Record<string, unknown>, ccEvent: string | undefined): unknown;
  hwMade(a: Answer, input: Record<string, unknown>): unknown[] | undefined;
  hwHit(b: Behaviour, seen: unknown): boolean;
};
/** The raw answer (throws for a `fail` that throws). */
export const answerOf = fns.hwAnswer;
/** The value (as `seenValue` selects it) a rewrite produces from `input`; undefined for others. */
export const madeBy = fns.hwMade;

/** Rewrite values: commands and paths made of the guards' tokens, sometimes odd. */
const rewriteValue: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 4, arbitrary: shortString.map((command) => ({ command })) },
  { weight: 1, arbitrary: fc.constantFrom(...TOKENS).map((t) => ({ file_path: `/tmp/${t}` })) },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom('command', 'args', 'n', 'ключ'), jsonValue(2)), {
        minLength: 1,
        maxLength: 3,
      })
      .map(objectOf),
  },
);

const decision = fc.constantFrom<Decision>('allow', 'deny', 'ask', 'defer');

export interface AnswerOptions {
  readonly rewrites: boolean;
  readonly fails: boolean;
  /** Only answers that let the chain go on: nothing, allow, ask. */
  readonly gentle?: boolean;
}

function answerArb(options: AnswerOptions): fc.Arbitrary<Answer> {
  if (options.gentle === true)
    return fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.record({
        kind: fc.constant('decide' as const),
        decision: fc.constantFrom('allow' as const, 'ask' as const),
        shape: fc.constantFrom('hookwarden' as const, 'claude-code' as const),
      }),
    );
  const arms: fc.WeightedArbitrary<Answer>[] = [
    { weight: 4, arbitrary: fc.constant({ kind: 'none' as const }) },
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant('decide' as const),
        decision,
        shape: fc.constantFrom(
          'hookwarden' as const,
          'hookwarden' as const,
          'claude-code' as const,
          'freecode' as const,
        ),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'stop' as const }) },
  ];
  if (options.rewrites)
    arms.push({
      weight: 4,
      arbitrary: fc.record(
        {
          kind: fc.constant('rewrite' as const),
          value: rewriteValue,
          shape: fc.constantFrom(
            'mutated' as const,
            'updatedInput' as const,
            'specific' as const,
            'modifiedInput' as const,
          ),
          decision: fc.constantFrom('allow' as const, 'ask' as const),
        },
        { requiredKeys: ['kind', 'value', 'shape'] },
      ),
    });
  if (options.fails)
    arms.push({
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('fail' as const),
        how: fc.constantFrom('throw' as const, 'invalid' as const),
      }),
    });
  return fc.oneof(...arms);
}

export function behaviourArb(options: AnswerOptions): fc.Arbitrary<Behaviour> {
  return fc.record(
    { token: fc.constantFrom(...TOKENS), hit: answerArb(options), miss: answerArb(options) },
    { requiredKeys: ['hit', 'miss'] },
  );
}
