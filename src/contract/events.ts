// The event catalogue (DESIGN §2). Dependency-free: the sandbox worker imports it to fold serial
// chains of JS hooks with the same rules as the host.

import { MUTATION_FIELDS, type MutationField } from './output-fields.js';

export { MUTATION_FIELDS, type MutationField };

/** What a hook's output may do at an event: decision kinds plus mutation fields. */
export type Honoured = MutationField | 'allow' | 'ask';

/** HookInput fields a serial chain can rewrite for the next hook. */
export type ChainableInputField =
  | 'prompt'
  | 'toolInput'
  | 'toolResult'
  | 'request'
  | 'response'
  | 'subagentResult';

/** One catalogue entry: how hooks of this event run and what their answers may do. */
export interface EventDefinition {
  readonly name: string;
  /** `serial`: a mutating chain where the first deny short-circuits; `parallel`: fan-out. */
  readonly mode: 'serial' | 'parallel';
  /** Whether a `deny` is honoured (and whether failures of fail-closed hooks matter beyond `mandatory`). */
  readonly canDeny: boolean;
  /** Output fields honoured at this event; any other field is ignored and listed in `ignoredFields`. */
  readonly honours: readonly Honoured[];
  /** Tool-scoped events apply `matcher` and `if`; others run every hook. */
  readonly toolScoped: boolean;
  /** Serial chains: which input field a mutation replaces for the next hook. */
  readonly chain: Readonly<Partial<Record<MutationField, ChainableInputField>>>;
}

const entry = (
  name: string,
  mode: 'serial' | 'parallel',
  canDeny: boolean,
  honours: readonly Honoured[],
  toolScoped: boolean,
  chain: Partial<Record<MutationField, ChainableInputField>> = {},
): EventDefinition =>
  Object.freeze({ name, mode, canDeny, honours: Object.freeze(honours), toolScoped, chain });

/** The built-in catalogue, in firing order. */
export const DEFAULT_EVENTS: readonly EventDefinition[] = Object.freeze([
  entry('SessionStart', 'parallel', false, ['additionalContext'], false),
  entry(
    'BeforeTurn',
    'serial',
    true,
    ['allow', 'mutatedPrompt', 'modelOverride', 'additionalContext'],
    false,
    {
      mutatedPrompt: 'prompt',
    },
  ),
  entry('BeforeModel', 'serial', true, ['allow', 'mutatedRequest'], false, { mutatedRequest: 'request' }),
  entry('BeforeTool', 'serial', true, ['allow', 'mutatedToolInput', 'ask', 'additionalContext'], true, {
    mutatedToolInput: 'toolInput',
  }),
  entry('ApprovalRequest', 'serial', true, ['allow', 'ask'], true),
  entry('AfterTool', 'serial', false, ['updatedToolOutput', 'additionalContext'], true, {
    updatedToolOutput: 'toolResult',
  }),
  entry('AfterModel', 'serial', false, ['mutatedText'], false, { mutatedText: 'response' }),
  entry('BeforeCompact', 'parallel', false, ['additionalContext'], false),
  entry('AfterCompact', 'parallel', false, [], false),
  entry('BeforeSubagent', 'serial', false, ['additionalContext'], false),
  entry('AfterSubagent', 'serial', false, ['mutatedText'], false, { mutatedText: 'subagentResult' }),
  entry('AfterTurn', 'serial', false, ['mutatedText', 'continueWork'], false, { mutatedText: 'response' }),
  entry('SessionEnd', 'parallel', false, [], false),
]);

/** Claude Code / FreeCode names and what they resolve to. */
export const EVENT_ALIASES: Readonly<Record<string, { event: string; input?: { ok: false } }>> =
  Object.freeze({
    PreToolUse: { event: 'BeforeTool' },
    PostToolUse: { event: 'AfterTool' },
    PostToolUseFailure: { event: 'AfterTool', input: { ok: false } },
    PermissionRequest: { event: 'ApprovalRequest' },
    UserPromptSubmit: { event: 'BeforeTurn' },
    Stop: { event: 'AfterTurn' },
    SubagentStart: { event: 'BeforeSubagent' },
    SubagentStop: { event: 'AfterSubagent' },
    PreCompact: { event: 'BeforeCompact' },
    PostCompact: { event: 'AfterCompact' },
  });

/** Default chain targets for custom events that honour a rewritable field. */
export const DEFAULT_CHAIN: Readonly<Partial<Record<MutationField, ChainableInputField>>> = Object.freeze({
  mutatedPrompt: 'prompt',
  mutatedToolInput: 'toolInput',
  updatedToolOutput: 'toolResult',
  mutatedRequest: 'request',
  mutatedText: 'response',
});

/** A resolved catalogue: canonical names plus aliases. */
export class EventCatalogue {
  readonly #events = new Map<string, EventDefinition>();

  constructor(events: readonly EventDefinition[]) {
    for (const e of events) this.#events.set(e.name, e);
  }

  /** Resolves a canonical name or an alias; `undefined` when unknown. */
  resolve(name: string): { definition: EventDefinition; aliasInput?: { ok: false } } | undefined {
    const direct = this.#events.get(name);
    if (direct !== undefined) return { definition: direct };
    const alias = Object.hasOwn(EVENT_ALIASES, name) ? EVENT_ALIASES[name] : undefined;
    if (alias === undefined) return undefined;
    const target = this.#events.get(alias.event);
    if (target === undefined) return undefined;
    return alias.input === undefined
      ? { definition: target }
      : { definition: target, aliasInput: alias.input };
  }

  get(name: string): EventDefinition | undefined {
    return this.resolve(name)?.definition;
  }

  /** Canonical names, in catalogue order. */
  names(): string[] {
    return [...this.#events.keys()];
  }

  /** Every accepted name: canonical ones then aliases (for "valid events are …" messages). */
  acceptedNames(): string[] {
    return [...this.names(), ...Object.keys(EVENT_ALIASES).filter((a) => this.resolve(a) !== undefined)];
  }
}
