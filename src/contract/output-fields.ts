// The one list of what a hook may answer (HookOutput), in output order. Everything that describes
// that shape derives from it: the HookOutput and DispatchResult types, the mutation fields of the
// catalogue, the dependency-free parser's checks (parse-output.ts), the zod schema users get
// (hook-output.ts), the fold's field order and the result's keys. Dependency-free.

import type { DECISIONS } from './decisions.js';

/** The value kinds a field may hold. */
export interface FieldKinds {
  decision: (typeof DECISIONS)[number];
  string: string;
  boolean: boolean;
  record: Record<string, unknown>;
  stringRecord: Record<string, string>;
  any: unknown;
  reasonObject: { reason: string };
}

/**
 * Every field, in output order. `mutation`: a field an event may honour (besides decision/reason);
 * `universal`: honoured at every event; `merge`: how several hooks' values fold — `join` keeps every
 * one, joined with "\n"; `keys` merges objects key by key; otherwise the last one wins.
 */
export const OUTPUT_FIELD_SPECS = [
  { name: 'decision', kind: 'decision', mutation: false },
  { name: 'reason', kind: 'string', mutation: false },
  /** Context for the model; every hook's is kept, joined with "\n". */
  { name: 'additionalContext', kind: 'string', mutation: true, merge: 'join' },
  { name: 'mutatedPrompt', kind: 'string', mutation: true },
  { name: 'modelOverride', kind: 'string', mutation: true },
  { name: 'mutatedToolInput', kind: 'record', mutation: true },
  { name: 'updatedToolOutput', kind: 'any', mutation: true },
  { name: 'mutatedRequest', kind: 'any', mutation: true },
  { name: 'mutatedText', kind: 'string', mutation: true },
  { name: 'continueWork', kind: 'reasonObject', mutation: true },
  /** ApprovalRequest (Claude Code's PermissionRequest): permission updates, carried for the platform. */
  { name: 'updatedPermissions', kind: 'any', mutation: true },
  /** ApprovalRequest: with a deny, stop the agent (Claude Code's `interrupt`). */
  { name: 'interrupt', kind: 'boolean', mutation: true },
  /** SessionStart/Setup: variables for the session (Claude Code's CLAUDE_ENV_FILE `export` lines). */
  { name: 'sessionEnv', kind: 'stringRecord', mutation: true, merge: 'keys' },
  /**
   * SessionStart/Setup/CwdChanged/FileChanged: the session's variables as bash assignment lines,
   * every hook's kept in order (Claude Code runs its CLAUDE_ENV_FILE as bash: `$PATH` there is the
   * PATH of the moment). Checked by the session-env rule like CLAUDE_ENV_FILE lines.
   */
  { name: 'sessionEnvScript', kind: 'string', mutation: true, merge: 'join' },
  /** `false`: stop processing after this hook (Claude Code's `continue`); on deny-capable events a deny. */
  { name: 'continue', kind: 'boolean', mutation: true, universal: true },
  /** Why processing stops (with `continue: false`). */
  { name: 'stopReason', kind: 'string', mutation: true, universal: true },
  /** A message for the user; every hook's is kept, joined with "\n". */
  { name: 'systemMessage', kind: 'string', mutation: true, universal: true, merge: 'join' },
  /** Claude Code's `suppressOutput`, carried for the platform. */
  { name: 'suppressOutput', kind: 'boolean', mutation: true, universal: true },
] as const satisfies readonly {
  name: string;
  kind: keyof FieldKinds;
  mutation: boolean;
  universal?: boolean;
  merge?: 'join' | 'keys';
}[];

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

/** Fields every event honours, whatever its catalogue entry says. */
export const UNIVERSAL_FIELDS: ReadonlySet<string> = new Set(
  OUTPUT_FIELD_SPECS.filter((f) => 'universal' in f && f.universal).map((f) => f.name),
);

/** How each field's values from several hooks fold (see OUTPUT_FIELD_SPECS). */
export const MERGE: Readonly<Record<string, 'join' | 'keys' | undefined>> = Object.fromEntries(
  OUTPUT_FIELD_SPECS.map((f) => [f.name, 'merge' in f ? f.merge : undefined]),
);
