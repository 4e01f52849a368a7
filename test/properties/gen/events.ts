// The events the generated cases dispatch, with the facts the oracles need, written down here from
// docs/semantics.md (not read from hookwarden's catalogue): whether the event can deny, its mode,
// whether it is tool-scoped, its Claude Code name, and an input generator.
import fc from 'fast-check';
import { jsonValue, shortString, type ToolInputOptions, toolInput, toolName } from './inputs.js';

export interface EventFacts {
  readonly canDeny: boolean;
  readonly mode: 'serial' | 'parallel';
  readonly toolScoped: boolean;
  /** Its name in Claude Code's files (and FreeCode's); none: only hookwarden's files register it. */
  readonly cc?: string;
  /** The input field a matcher tests on a non-tool event. */
  readonly matchOn?: string;
}

export const EVENTS = {
  BeforeTool: { canDeny: true, mode: 'serial', toolScoped: true, cc: 'PreToolUse' },
  ApprovalRequest: { canDeny: true, mode: 'serial', toolScoped: true, cc: 'PermissionRequest' },
  BeforeTurn: { canDeny: true, mode: 'serial', toolScoped: false, cc: 'UserPromptSubmit' },
  BeforeModel: { canDeny: true, mode: 'serial', toolScoped: false },
  PreSkillShellCommand: { canDeny: true, mode: 'serial', toolScoped: true, cc: 'PreSkillShellCommand' },
  AfterTool: { canDeny: false, mode: 'serial', toolScoped: true },
  SessionStart: {
    canDeny: false,
    mode: 'parallel',
    toolScoped: false,
    cc: 'SessionStart',
    matchOn: 'source',
  },
  // Declared by the first policy file of every case (CUSTOM_EVENTS): a deny-capable parallel tool event.
  Gate: { canDeny: true, mode: 'parallel', toolScoped: true },
} as const satisfies Record<string, EventFacts>;

export type EventName = keyof typeof EVENTS;

/** The `events` section the first policy file declares. */
export const CUSTOM_EVENTS = {
  Gate: { mode: 'parallel', canDeny: true, toolScoped: true, honours: ['allow', 'ask', 'mutatedToolInput'] },
};

export const eventName: fc.Arbitrary<EventName> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('BeforeTool' as const) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<EventName>(
      'ApprovalRequest',
      'BeforeTurn',
      'BeforeModel',
      'PreSkillShellCommand',
      'AfterTool',
      'SessionStart',
      'Gate',
    ),
  },
);

/** The dispatch input of `event` (sessionId, cwd and timestamp are the case's). */
export function eventInput(
  event: EventName,
  options: ToolInputOptions = {},
): fc.Arbitrary<Record<string, unknown>> {
  const facts: EventFacts = EVENTS[event];
  if (facts.toolScoped) {
    const base = fc.record({ toolName, toolInput: toolInput(options) });
    if (event !== 'AfterTool') return base;
    return fc
      .tuple(base, fc.boolean(), jsonValue(2))
      .map(([b, ok, toolResult]) => ({ ...b, ok, toolResult }));
  }
  if (event === 'BeforeTurn') return fc.record({ prompt: shortString });
  if (event === 'BeforeModel') return fc.record({ request: jsonValue(3) });
  return fc.record({ source: fc.constantFrom('startup', 'resume', 'clear', 'compact') });
}
