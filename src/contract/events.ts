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

/** The input field each rewritable output replaces for the next hook of a serial chain. */
export const DEFAULT_CHAIN: Readonly<Partial<Record<MutationField, ChainableInputField>>> = Object.freeze({
  mutatedPrompt: 'prompt',
  mutatedToolInput: 'toolInput',
  updatedToolOutput: 'toolResult',
  mutatedRequest: 'request',
  mutatedText: 'response',
});

/** How an event is declared: one row of the catalogue (the README's events table). */
export interface EventSpec {
  readonly mode: 'serial' | 'parallel';
  readonly canDeny: boolean;
  readonly honours: readonly Honoured[];
  /** Matchers and `if` filters apply (tool events). Default false. */
  readonly toolScoped?: boolean;
  /** Serial chains: the input field each honoured mutation rewrites. Default: DEFAULT_CHAIN's. */
  readonly chain?: Readonly<Partial<Record<MutationField, ChainableInputField>>>;
}

/** A catalogue entry from its spec; built-in and custom events alike. Frozen. */
export function defineEvent(name: string, spec: EventSpec): EventDefinition {
  const chain =
    spec.chain ??
    Object.fromEntries(
      spec.honours.flatMap((h) => (h in DEFAULT_CHAIN ? [[h, DEFAULT_CHAIN[h as MutationField]]] : [])),
    );
  return Object.freeze({
    name,
    mode: spec.mode,
    canDeny: spec.canDeny,
    honours: Object.freeze([...spec.honours]),
    toolScoped: spec.toolScoped === true,
    chain: Object.freeze({ ...chain }),
  });
}

/** The built-in catalogue, in firing order (README "Events" shows the same table). */
export const DEFAULT_EVENTS: readonly EventDefinition[] = Object.freeze([
  defineEvent('SessionStart', { mode: 'parallel', canDeny: false, honours: ['additionalContext'] }),
  defineEvent('BeforeTurn', {
    mode: 'serial',
    canDeny: true,
    honours: ['allow', 'mutatedPrompt', 'modelOverride', 'additionalContext'],
  }),
  defineEvent('BeforeModel', { mode: 'serial', canDeny: true, honours: ['allow', 'mutatedRequest'] }),
  defineEvent('BeforeTool', {
    mode: 'serial',
    canDeny: true,
    honours: ['allow', 'mutatedToolInput', 'ask', 'additionalContext'],
    toolScoped: true,
  }),
  defineEvent('ApprovalRequest', {
    mode: 'serial',
    canDeny: true,
    honours: ['allow', 'ask'],
    toolScoped: true,
  }),
  defineEvent('AfterTool', {
    mode: 'serial',
    canDeny: false,
    honours: ['updatedToolOutput', 'additionalContext'],
    toolScoped: true,
  }),
  defineEvent('AfterModel', { mode: 'serial', canDeny: false, honours: ['mutatedText'] }),
  defineEvent('BeforeCompact', { mode: 'parallel', canDeny: false, honours: ['additionalContext'] }),
  defineEvent('AfterCompact', { mode: 'parallel', canDeny: false, honours: [] }),
  defineEvent('BeforeSubagent', { mode: 'serial', canDeny: false, honours: ['additionalContext'] }),
  defineEvent('AfterSubagent', {
    mode: 'serial',
    canDeny: false,
    honours: ['mutatedText'],
    chain: { mutatedText: 'subagentResult' },
  }),
  defineEvent('AfterTurn', { mode: 'serial', canDeny: false, honours: ['mutatedText', 'continueWork'] }),
  defineEvent('SessionEnd', { mode: 'parallel', canDeny: false, honours: [] }),
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
