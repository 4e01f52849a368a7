// The event catalogue (docs/semantics.md). Dependency-free: the sandbox worker imports it to fold serial
// chains of JS hooks with the same rules as the host.

import { MUTATION_FIELDS, type MutationField } from './output-fields.js';

export { MUTATION_FIELDS, type MutationField };

/** What a hook's output may do at an event: decision kinds plus mutation fields. */
export type Honoured = MutationField | 'allow' | 'ask' | 'defer';

/** HookInput fields a serial chain can rewrite for the next hook. */
type ChainableInputField = 'prompt' | 'toolInput' | 'toolResult' | 'request' | 'response' | 'subagentResult';

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
  /**
   * Events that are not tool-scoped but have a matcher (Claude Code's): the input fields it is
   * tested against, first present one wins (dotted paths; `basename:` tests the last path segment).
   * Empty: a matcher is ignored. A matcher with none of them present is met, as in Claude Code.
   */
  readonly matchOn: readonly string[];
}

/** The input field each rewritable output replaces for the next hook of a serial chain. */
const DEFAULT_CHAIN: Readonly<Partial<Record<MutationField, ChainableInputField>>> = Object.freeze({
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
  /** Non-tool events with a matcher: the input fields it tests (see EventDefinition). */
  readonly matchOn?: readonly string[];
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
    matchOn: Object.freeze([...(spec.matchOn ?? [])]),
  });
}

const observer = (honours: readonly Honoured[] = [], matchOn?: readonly string[]): EventSpec => ({
  mode: 'parallel',
  canDeny: false,
  honours,
  ...(matchOn === undefined ? {} : { matchOn }),
});
const gate = (honours: readonly Honoured[] = [], matchOn?: readonly string[]): EventSpec => ({
  mode: 'serial',
  canDeny: true,
  honours,
  ...(matchOn === undefined ? {} : { matchOn }),
});

/** hookwarden's own events, in firing order. */
const HOOKWARDEN_EVENTS: readonly EventDefinition[] = [
  defineEvent('SessionStart', observer(['additionalContext', 'sessionEnv', 'sessionEnvScript'], ['source'])),
  defineEvent('BeforeTurn', gate(['allow', 'mutatedPrompt', 'modelOverride', 'additionalContext'])),
  defineEvent('BeforeModel', gate(['allow', 'mutatedRequest'])),
  defineEvent('BeforeTool', {
    ...gate(['allow', 'mutatedToolInput', 'ask', 'defer', 'additionalContext']),
    toolScoped: true,
  }),
  defineEvent('ApprovalRequest', {
    ...gate(['allow', 'ask', 'mutatedToolInput', 'additionalContext', 'updatedPermissions', 'interrupt']),
    toolScoped: true,
  }),
  defineEvent('AfterTool', {
    mode: 'serial',
    canDeny: false,
    honours: ['updatedToolOutput', 'additionalContext'],
    toolScoped: true,
  }),
  defineEvent('AfterModel', { mode: 'serial', canDeny: false, honours: ['mutatedText'] }),
  // Claude Code and FreeCode let a hook block a compaction (the history is left intact).
  defineEvent('BeforeCompact', {
    ...gate(['additionalContext'], ['compaction.trigger', 'trigger']),
    mode: 'parallel',
  }),
  defineEvent('AfterCompact', observer([], ['compaction.trigger', 'trigger'])),
  defineEvent('BeforeSubagent', {
    mode: 'serial',
    canDeny: false,
    honours: ['additionalContext'],
    matchOn: ['agentType', 'subagentName'],
  }),
  defineEvent('AfterSubagent', {
    mode: 'serial',
    canDeny: false,
    honours: ['mutatedText', 'continueWork'],
    chain: { mutatedText: 'subagentResult' },
    matchOn: ['agentType', 'subagentName'],
  }),
  defineEvent('AfterTurn', { mode: 'serial', canDeny: false, honours: ['mutatedText', 'continueWork'] }),
  defineEvent('SessionEnd', observer([], ['reason'])),
];

/** The events of Claude Code's reference that have no hookwarden name: their own names are canonical. */
const CLAUDE_CODE_OWN_EVENTS: readonly EventDefinition[] = [
  defineEvent('Setup', observer(['additionalContext', 'sessionEnv', 'sessionEnvScript'], ['trigger'])),
  defineEvent('Notification', observer([], ['notificationType'])),
  defineEvent('UserPromptExpansion', gate(['additionalContext'], ['commandName'])),
  defineEvent('PostToolBatch', gate(['additionalContext'])),
  defineEvent('PermissionDenied', { ...observer(['additionalContext']), toolScoped: true }),
  defineEvent('StopFailure', observer([], ['error'])),
  // Claude Code 2.1.335+: an interrupt ended the main turn (`source`: user, session or system). Its
  // output and exit codes are ignored.
  defineEvent('Interrupt', observer([], ['source'])),
  defineEvent('TeammateIdle', { mode: 'serial', canDeny: false, honours: ['continueWork'] }),
  defineEvent('TaskCreated', gate()),
  defineEvent('TaskCompleted', gate()),
  defineEvent('ConfigChange', gate([], ['source'])),
  defineEvent('InstructionsLoaded', observer([], ['loadReason'])),
  defineEvent('CwdChanged', observer(['sessionEnv', 'sessionEnvScript'])),
  defineEvent('DirectoryAdded', observer([], ['source'])),
  // Claude Code matches the changed file's name (".envrc|.env"), not its path.
  defineEvent('FileChanged', observer(['sessionEnv', 'sessionEnvScript'], ['basename:filePath'])),
  defineEvent('WorktreeCreate', gate()),
  defineEvent('WorktreeRemove', gate()),
  defineEvent('Elicitation', gate([], ['mcpServerName'])),
  defineEvent('ElicitationResult', gate([], ['mcpServerName'])),
  defineEvent('PreModelSwitch', gate(['allow', 'ask'], ['toModel'])),
  defineEvent('PostModelSwitch', observer(['additionalContext'], ['toModel'])),
  defineEvent('MessageDisplay', observer()),
  // A skill's inline shell command (tool_name Bash or PowerShell, tool_input.command): exit 2 or a
  // deny keeps it from running; Claude Code never applies a rewrite or waits for an ask.
  defineEvent('PreSkillShellCommand', {
    ...gate(['allow', 'ask', 'defer', 'additionalContext']),
    toolScoped: true,
  }),
];

/**
 * The built-in catalogue (docs/semantics.md shows the same table): hookwarden's own events in firing
 * order, then the events of Claude Code's reference that have no hookwarden name (most are observers).
 */
export const DEFAULT_EVENTS: readonly EventDefinition[] = Object.freeze([
  ...HOOKWARDEN_EVENTS,
  ...CLAUDE_CODE_OWN_EVENTS,
]);

/** Claude Code / FreeCode names and what they resolve to. */
export const EVENT_ALIASES: Readonly<Record<string, { event: string; input?: { ok: boolean } }>> =
  Object.freeze({
    PreToolUse: { event: 'BeforeTool' },
    // A hook registered as PostToolUse runs after successful calls only, as PostToolUseFailure after
    // failed ones; one registered as AfterTool sees both.
    PostToolUse: { event: 'AfterTool', input: { ok: true } },
    PostToolUseFailure: { event: 'AfterTool', input: { ok: false } },
    PermissionRequest: { event: 'ApprovalRequest' },
    UserPromptSubmit: { event: 'BeforeTurn' },
    Stop: { event: 'AfterTurn' },
    // FreeCode's name for the end of a turn.
    TurnEnd: { event: 'AfterTurn' },
    SubagentStart: { event: 'BeforeSubagent' },
    SubagentStop: { event: 'AfterSubagent' },
    PreCompact: { event: 'BeforeCompact' },
    PostCompact: { event: 'AfterCompact' },
  });

/** Every event name of Claude Code's reference (aliases, shared names, and its own events). */
export const CLAUDE_CODE_EVENT_NAMES: ReadonlySet<string> = new Set([
  ...Object.keys(EVENT_ALIASES),
  'SessionStart',
  'SessionEnd',
  ...CLAUDE_CODE_OWN_EVENTS.map((e) => e.name),
]);

/** A resolved catalogue: canonical names plus aliases. */
export class EventCatalogue {
  readonly #events = new Map<string, EventDefinition>();

  constructor(events: readonly EventDefinition[]) {
    for (const e of events) this.#events.set(e.name, e);
  }

  /** Resolves a canonical name or an alias; `undefined` when unknown. */
  resolve(name: string): { definition: EventDefinition; aliasInput?: { ok: boolean } } | undefined {
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
