// HookOutput's zod schema, exported for users (and to generate documentation), built from the one
// list of output fields (output-fields.ts). Every answer goes through parseHookOutput
// (parse-output.ts), a dependency-free parser of the same shape.
import { z } from 'zod';
import { DECISIONS } from './decisions.js';
import { type FieldKinds, OUTPUT_FIELD_SPECS } from './output-fields.js';

const KIND_SCHEMAS: Record<keyof FieldKinds, z.ZodType> = {
  decision: z.enum(DECISIONS),
  string: z.string(),
  boolean: z.boolean(),
  stringRecord: z.record(z.string(), z.string()),
  record: z.record(z.string(), z.unknown()),
  any: z.unknown(),
  reasonObject: z.object({ reason: z.string() }),
};

/** Schema of a hook's answer (docs/semantics.md). Unknown keys are not errors: they are listed as ignored. */
export const hookOutputSchema = z.object(
  Object.fromEntries(OUTPUT_FIELD_SPECS.map((f) => [f.name, KIND_SCHEMAS[f.kind].optional()])),
);
