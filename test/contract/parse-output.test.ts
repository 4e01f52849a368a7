import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { hookInputSchema } from '../../src/contract/hook-input.js';
import { hookOutputSchema } from '../../src/contract/hook-output.js';
import { OUTPUT_FIELDS } from '../../src/contract/output-fields.js';
import { parseHookOutput } from '../../src/contract/parse-output.js';
import type { HookInput } from '../../src/contract/types.js';

const SAMPLES: unknown[] = [
  {},
  { decision: 'allow' },
  { decision: 'nope' },
  { decision: 1 },
  { reason: 'r', additionalContext: 'c', mutatedPrompt: 'p', modelOverride: 'm', mutatedText: 't' },
  { reason: 5 },
  { additionalContext: ['a'] },
  { mutatedToolInput: { a: 1 } },
  { mutatedToolInput: [] },
  { mutatedToolInput: 'x' },
  { mutatedToolInput: null },
  { updatedToolOutput: [1, 2] },
  { mutatedRequest: { messages: [] } },
  { continueWork: { reason: 'more' } },
  { continueWork: {} },
  { continueWork: { reason: 1 } },
  { continueWork: 'x' },
  { mutatedText: null },
];

describe('the dependency-free output parser', () => {
  it('accepts exactly what the exported zod schema accepts', () => {
    for (const sample of SAMPLES) {
      const zod = hookOutputSchema.safeParse(sample).success;
      const ours = parseHookOutput(sample, 'BeforeTool').ok;
      expect([sample, ours]).toEqual([sample, zod]);
    }
  });

  it('knows the same fields as the zod schema', () => {
    expect(OUTPUT_FIELDS).toEqual(Object.keys(hookOutputSchema.shape));
  });
});

// HookInput and its schema describe the same fields: a type-level check (tsc, run by CI, fails
// when they drift apart: a field in one and not the other, or of another type). Named fields only,
// optionality aside (zod adds `| undefined`).
type Known<T> = { [K in keyof T as string extends K ? never : K]-?: NonNullable<T[K]> };
type FromSchema = Known<z.output<typeof hookInputSchema>>;
type FromType = Known<HookInput>;
type Same<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;
type Drift = {
  [K in keyof FromSchema | keyof FromType]: K extends keyof FromSchema
    ? K extends keyof FromType
      ? Same<FromSchema[K], FromType[K]>
      : 'only in the schema'
    : 'only in the type';
};
const drift: { [K in keyof Drift as Drift[K] extends true ? never : K]: Drift[K] } = {};

describe('HookInput and its schema', () => {
  it('describe the same fields', () => {
    expect(drift).toEqual({});
    expect(Object.keys(hookInputSchema.shape)).toContain('toolInput');
  });
});
