import type { Dialect } from '../contract/dialects.js';
import type { EventDefinition } from '../contract/events.js';
import type { Scope } from '../contract/types.js';
import type { AnswerReading, PackOrigin } from '../registry/hook-definition.js';
import type { ToolMatcher } from '../registry/matcher.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { HookGate } from './grants.js';
import type { HookTypePolicy } from './hook-type-policy.js';
import type { PluginInfo } from './plugin-root.js';
import type { ScopeLimits } from './scope-limits.js';

export interface HookContext {
  readonly event: EventDefinition;
  readonly requireOk: boolean | undefined;
  /** The Claude Code alias used as the event key, if any. */
  readonly claudeEvent: string | undefined;
  readonly scope: Scope;
  readonly sink: DiagnosticSink;
  readonly configDir: string;
  /** The plugin the file belongs to (CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA); default root `configDir`. */
  readonly plugin?: PluginInfo | undefined;
  readonly limits: ScopeLimits;
  readonly matcher: ToolMatcher | undefined;
  readonly groupIf: string | undefined;
  readonly groupIfPath: string;
  /** Set when the hook comes from a verified pack. */
  readonly pack?: PackOrigin | undefined;
  /** The config file's dialect (undefined for packs). */
  readonly dialect?: Dialect | undefined;
  /** Allowed http hook URLs and variables, registered evaluators (undefined: none of them). */
  readonly hookTypes?: HookTypePolicy | undefined;
  /** A coding agent's file: the agent's event name the hook was registered under. */
  readonly agentEvent?: string | undefined;
  /** A project file's or a tenant's hook: held to what the policy granted (grant-gate.ts). */
  readonly gate?: HookGate | undefined;
  /** An ambiguous file: the other dialects the hook's answer is read in (config/dialect.ts). */
  readonly alsoReadAs?: readonly AnswerReading[] | undefined;
}
