// Plain value types of the contract. Dependency-free: shared by the host and the sandbox side.
// The zod schemas in hook-input.ts / hook-output.ts validate values of exactly these shapes.
import type { OUTCOMES, VERDICTS } from './decisions.js';
import type { FieldKinds } from './output-fields.js';

/** The optional fields of a HookInput, shared by HookInput and DispatchInput. */
interface HookInputFields {
  prompt?: string;
  toolName?: string;
  toolInput?: Record<string, unknown>;
  toolResult?: unknown;
  ok?: boolean;
  error?: unknown;
  reason?: string;
  usage?: unknown;
  cost?: unknown;
  caller?: { kind: 'main' | 'subagent'; agentName?: string };
  request?: unknown;
  response?: unknown;
  compaction?: { trigger?: string; tokens?: number };
  subagentName?: string;
  subagentResult?: unknown;
}

/** What a hook is told (docs/semantics.md). Unknown extra fields are passed through untouched. */
export interface HookInput extends HookInputFields {
  event: string;
  sessionId: string;
  cwd: string;
  /** ISO-8601 time of the event; JS hooks see it as `Date.now()`. */
  timestamp: string;
  [extra: string]: unknown;
}

/**
 * What a caller passes to `dispatch(event, input)`: a HookInput without `event` (the argument
 * names it) whose `sessionId`, `cwd` and `timestamp` may be left out. Defaults: `sessionId`
 * `"default"` (one session per executor, as far as `once` hooks are concerned), `cwd` the
 * executor's sandbox root (`root` option), `timestamp` the time of the call. Unknown extra fields
 * pass through to hooks unchanged.
 */
export interface DispatchInput extends HookInputFields {
  /** Ignored: the event argument of `dispatch` wins. */
  event?: string;
  /** Default `"default"`. */
  sessionId?: string;
  /** Default: the executor's sandbox root. */
  cwd?: string;
  /** ISO-8601 time of the event; default: now. JS hooks see it as `Date.now()`. */
  timestamp?: string;
  [extra: string]: unknown;
}

/** A hook's decision (`defer`: Claude Code's, on BeforeTool only). */
export type Decision = FieldKinds['decision'];

export type { HookOutput } from './output-fields.js';

/** The hook types a configuration file (or pack) may hold. */
export const CONFIGURED_HOOK_TYPES = ['command', 'js', 'wasm', 'http', 'prompt', 'agent'] as const;

/** Every hook type (`trusted`: an in-process callback registered through the library). */
export const HOOK_TYPES = [...CONFIGURED_HOOK_TYPES, 'trusted'] as const;

export type HookType = (typeof HOOK_TYPES)[number];
export type { Scope } from './scopes.js';

/** Per-hook outcome in a DispatchResult (`queued`: an async hook handed to the queue; see docs/scaling.md). */
export type Outcome = (typeof OUTCOMES)[number];

/** The dispatch verdict. `passthrough`: nobody decided (distinct from `allow`: somebody approved). */
export type Verdict = (typeof VERDICTS)[number];
