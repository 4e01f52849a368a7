import { describe, expect, it } from 'vitest';
import { hookOutputSchema } from '../../src/contract/hook-output.js';
import { OUTPUT_FIELD_NAMES, parseHookOutput } from '../../src/contract/parse-output.js';

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
    expect(OUTPUT_FIELD_NAMES).toEqual(Object.keys(hookOutputSchema.shape));
  });
});
