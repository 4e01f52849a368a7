// The one list of what a hook may answer (HookOutput), in output order. Everything that describes
// that shape derives from it: the HookOutput and DispatchResult types, the mutation fields of the
// catalogue, the dependency-free parser's checks (parse-output.ts), the zod schema users get
// (hook-output.ts), the fold's field order and the result's keys. Dependency-free.

/** The value kinds a field may hold. */
export interface FieldKinds {
  decision: 'allow' | 'deny' | 'ask';
  string: string;
  record: Record<string, unknown>;
  any: unknown;
  reasonObject: { reason: string };
}

/** Every field, in output order. `mutation`: a field an event may honour (besides decision/reason). */
export const OUTPUT_FIELD_SPECS = [
  { name: 'decision', kind: 'decision', mutation: false },
  { name: 'reason', kind: 'string', mutation: false },
  /** Context for the model; every hook's is kept, joined with "\n". */
  { name: 'additionalContext', kind: 'string', mutation: true },
  { name: 'mutatedPrompt', kind: 'string', mutation: true },
  { name: 'modelOverride', kind: 'string', mutation: true },
  { name: 'mutatedToolInput', kind: 'record', mutation: true },
  { name: 'updatedToolOutput', kind: 'any', mutation: true },
  { name: 'mutatedRequest', kind: 'any', mutation: true },
  { name: 'mutatedText', kind: 'string', mutation: true },
  { name: 'continueWork', kind: 'reasonObject', mutation: true },
] as const satisfies readonly { name: string; kind: keyof FieldKinds; mutation: boolean }[];

type Spec = (typeof OUTPUT_FIELD_SPECS)[number];

/** What a hook may answer. Returning nothing means "proceed". */
export type HookOutput = { -readonly [S in Spec as S['name']]?: FieldKinds[S['kind']] };

type MutationSpec = Extract<Spec, { mutation: true }>;
/** Output fields a hook may set besides `decision`/`reason`. */
export type MutationField = MutationSpec['name'];
/** The mutation fields of a DispatchResult (the folded ones). */
export type Mutations = { -readonly [S in MutationSpec as S['name']]?: FieldKinds[S['kind']] };

/** The field names, in output order. */
export const OUTPUT_FIELDS: readonly (keyof HookOutput)[] = Object.freeze(
  OUTPUT_FIELD_SPECS.map((f) => f.name),
);

/** The mutation fields, in output order. */
export const MUTATION_FIELDS = Object.freeze(
  OUTPUT_FIELD_SPECS.filter((f): f is MutationSpec => f.mutation).map((f) => f.name),
) as readonly MutationField[];
