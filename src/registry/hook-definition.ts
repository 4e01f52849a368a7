// The hook model: the internal, fully-defaulted form of every hook the registry holds, one member
// of a discriminated union per hook type (`type`). Configured hooks are built once at load and
// frozen; trusted callbacks are registered through the library. A new hook type adds a member.
import type { CommandRlimits } from '../contract/command-task.js';
import type { OnError } from '../contract/decisions.js';
import type { Dialect } from '../contract/dialects.js';
import type { HookInput, HookOutput, Scope } from '../contract/types.js';
import type { IfFilter } from './if-filter.js';
import type { ToolMatcher } from './matcher.js';

/** rlimits of a command hook (0 CPU seconds: derived from the deadline). */
type Rlimits = CommandRlimits;

/** Which shell runs an inline command: `sh` (hookwarden's dialect), `bash` or `powershell` (Claude Code's `shell`). */
type CommandShell = 'sh' | 'bash' | 'powershell';

export interface CommandHookSpec {
  readonly program:
    | { readonly kind: 'shell'; readonly command: string; readonly shell?: CommandShell }
    | { readonly kind: 'argv'; readonly argv: readonly string[] };
  readonly env: Readonly<Record<string, string>>;
  readonly inheritEnv: readonly string[];
  readonly isolation: 'process' | 'namespace';
  /** Process mode: contained where the host allows it (`prefer`), or never without it (`require`). */
  readonly containment: 'prefer' | 'require';
  readonly writable: boolean;
  readonly runAs: 'nobody' | undefined;
  readonly rlimits: Rlimits;
  readonly maxOutputBytes: number;
  /**
   * `CLAUDE_PLUGIN_ROOT`: the plugin root of the file that declared the hook (config/plugin-root.ts),
   * else that file's (or pack's) directory.
   */
  readonly pluginRoot: string;
  /** `CLAUDE_PLUGIN_DATA`: the plugin's data folder (config/plugin-root.ts); unset outside a plugin. */
  readonly pluginData: string | undefined;
  /**
   * The Claude Code event name the hook was registered under (e.g. `PreToolUse`), if any: its stdin
   * then also carries Claude Code's snake_case fields (session_id, tool_name, tool_input, …).
   */
  readonly claudeEvent: string | undefined;
}

export interface JsHookSpec {
  readonly code: string;
  /**
   * File name shown in the hook's errors and stack traces: the `source` as written, relative to the
   * config file's (or pack's) directory, or `<config file name>#<json path>` for inline code.
   */
  readonly filename: string;
  /** The resolved absolute path of `source` (host side only: validate, pack checks); unset for `code`. */
  readonly sourcePath: string | undefined;
  readonly memoryBytes: number;
  readonly maxOutputBytes: number;
}

/** A wasm hook's module: a WASI preview 1 command, checked, capped and compiled at load. */
export interface WasmHookSpec {
  /** The `source` as written, relative to the config file's (or pack's) directory. */
  readonly filename: string;
  /** The resolved absolute path of `source` (host side only: validate, pack checks). */
  readonly sourcePath: string;
  /** sha256 of the module file, hex. */
  readonly digest: string;
  /** The prepared module, compiled once per digest and limits (sandbox/wasm/module-cache.ts). */
  readonly module: WebAssembly.Module;
  /** The memory the module declares and may grow to, in 64 KiB pages; undefined: it has none. */
  readonly memoryPages: { readonly initial: number; readonly maximum: number } | undefined;
  /** The memory cap, in bytes (a whole number of pages). */
  readonly memoryBytes: number;
  /** Cap of stdout and of stderr, each. */
  readonly maxOutputBytes: number;
  /** Instruction budget (docs/wasm.md#fuel); undefined: the deadline alone. */
  readonly fuel: number | undefined;
  /** As for command hooks: its stdin then also carries Claude Code's snake_case fields. */
  readonly claudeEvent: string | undefined;
}

/** An http hook's request (Claude Code's `type: "http"`): the hook input POSTed as JSON to `url`. */
export interface HttpHookSpec {
  /** The normalised URL the request goes to (admitted by `allowedHttpHookUrls` at load). */
  readonly url: string;
  /** The `allowedHttpHookUrls` pattern that admitted the URL (for validate and messages). */
  readonly admittedBy: string;
  /** Header name → value template: `$NAME` / `${NAME}` are filled from `envVars`, others left empty. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * Variables a header may name: the hook's `allowedEnvVars`, within the policy's
   * `httpHookAllowedEnvVars` when one is set; without one, secret-looking names are removed.
   */
  readonly envVars: readonly string[];
  /**
   * True when the policy's `httpHookAllowedEnvVars` named every one of `envVars` (the operator
   * vouched for them); otherwise a value that carries a credential is sent empty.
   */
  readonly envVouched: boolean;
  /** Largest response body read, in bytes; past it the hook fails with `output_limit`. */
  readonly maxOutputBytes: number;
  /** As for command hooks: the body then carries Claude Code's snake_case fields too. */
  readonly claudeEvent: string | undefined;
}

/** A prompt or agent hook: handed to the evaluator the embedding platform registered for its type. */
export interface EvaluatorHookSpec {
  /** The hook's `prompt` text as written (Claude Code's `$ARGUMENTS` is left for the evaluator). */
  readonly prompt: string;
  readonly model: string | undefined;
  /** Claude Code's prompt-hook `continueOnBlock`, passed on to the evaluator. */
  readonly continueOnBlock: boolean | undefined;
  /** As for command hooks: the input then carries Claude Code's snake_case fields too. */
  readonly claudeEvent: string | undefined;
}

/** What a verified pack looked like on disk (see src/packs/fingerprint.ts). */
export interface PackFingerprint {
  readonly root: string;
  /** Relative directory path ('' = the root) → its content entry names, sorted, joined by NUL. */
  readonly dirs: ReadonlyMap<string, string>;
  /** Relative file path → `ino:size:mtimeNs:ctimeNs`. */
  readonly files: ReadonlyMap<string, string>;
}

/** The verified policy pack a hook comes from. */
export interface PackOrigin {
  readonly name: string;
  readonly version: string;
  /** Real absolute path of the pack directory (HOOK_PACK_DIR of its command hooks). */
  readonly dir: string;
  /** The pack digest that was verified, `sha256:<64 hex>`. */
  readonly digest: string;
  /** The pack's files as verified: checked again before each of its command hooks spawns. */
  readonly fingerprint: PackFingerprint;
}

/** An async hook (`async`/`asyncRewake`): runs after its dispatch answered, never changes the verdict. */
export interface AsyncHookSpec {
  /** `asyncRewake`: a deny, continueWork or exit 2 emits a `rewake` event. */
  readonly rewake: boolean;
  /** Times a failed run is tried again. */
  readonly retries: number;
  /** Wait before the first retry, ms. */
  readonly retryBackoffMs: number;
  /** `fixed`: the same wait each time; `exponential`: doubling. */
  readonly retryBackoff: 'fixed' | 'exponential';
}

/** What every configured hook has, whatever its type. */
interface ConfiguredHook {
  readonly id: string;
  /** True when `id` is a configured `name` (only named hooks replace each other across files). */
  readonly named: boolean;
  /** Canonical event name. */
  readonly event: string;
  readonly scope: Scope;
  /** The protocol the hook speaks where hook systems differ (its file's dialect; packs: hookwarden). */
  readonly dialect: Dialect;
  /**
   * A coding agent's file: the agent's event the hook was registered under (Cursor's
   * `beforeShellExecution`). Its stdin is that event's input, and a dispatch of another of the same
   * agent's events (the agent fires both) does not run it.
   */
  readonly agentEvent?: string;
  /** Undefined when the event is not tool-scoped or the matcher matches everything. */
  readonly matcher: ToolMatcher | undefined;
  readonly ifFilters: readonly IfFilter[];
  /** Registered under an alias that implies an input, e.g. PostToolUseFailure → only `ok: false`. */
  readonly requireOk: boolean | undefined;
  readonly onError: OnError;
  /**
   * The effective deadline (docs/configuration.md#hook-fields: timeout, widened by a declared budget + grace,
   * clamped).
   */
  readonly deadlineMs: number;
  readonly timeoutMs: number;
  readonly budgetMs: number | undefined;
  readonly once: boolean;
  /** Identity of the behaviour (excludes name/matcher/if): identical specs run once per event. */
  readonly dedupKey: string;
  /** `<file>: <json path>`, for messages. */
  readonly origin: string;
  /** Where the hook was declared. */
  readonly location: { readonly file: string; readonly path: string };
  /** Set for hooks loaded from a pack. */
  readonly pack?: PackOrigin;
  /** Set for async hooks (docs/scaling.md). */
  readonly async?: AsyncHookSpec;
}

/** A command hook: a restricted subprocess. */
export interface CommandHookDefinition extends ConfiguredHook {
  readonly type: 'command';
  readonly command: CommandHookSpec;
}

/** A JS hook: a module run in a fresh QuickJS isolate. */
export interface JsHookDefinition extends ConfiguredHook {
  readonly type: 'js';
  readonly js: JsHookSpec;
}

/** A wasm hook: a WASI command module run on a fresh instance, answering as a command hook does. */
export interface WasmHookDefinition extends ConfiguredHook {
  readonly type: 'wasm';
  readonly wasm: WasmHookSpec;
}

/** An http hook: the input POSTed to an allowed URL, the response read like a command's stdout. */
export interface HttpHookDefinition extends ConfiguredHook {
  readonly type: 'http';
  readonly http: HttpHookSpec;
}

/** A prompt or agent hook, answered by the platform's evaluator for that type. */
export interface EvaluatorHookDefinition<T extends 'prompt' | 'agent' = 'prompt' | 'agent'>
  extends ConfiguredHook {
  readonly type: T;
  readonly evaluator: EvaluatorHookSpec;
}

/** A hook loaded from configuration (a file, an object, a pack). */
export type HookDefinition =
  | CommandHookDefinition
  | JsHookDefinition
  | WasmHookDefinition
  | HttpHookDefinition
  | EvaluatorHookDefinition<'prompt'>
  | EvaluatorHookDefinition<'agent'>;

/** Context given to a trusted callback. */
export interface TrustedContext {
  readonly hookId: string;
  /** Aborts at the hook's deadline or when the dispatch is aborted. */
  readonly signal: AbortSignal;
}

export type TrustedHandler = (
  input: Readonly<HookInput>,
  ctx: TrustedContext,
) => HookOutput | undefined | Promise<HookOutput | undefined>;

/** A trusted in-process callback as registered (never loaded from a file). */
export interface TrustedDefinition {
  readonly id: string;
  readonly event: string;
  readonly scope: 'trusted';
  readonly type: 'trusted';
  readonly matcher: ToolMatcher | undefined;
  readonly ifFilters: readonly IfFilter[];
  readonly requireOk: boolean | undefined;
  readonly onError: OnError;
  readonly deadlineMs: number;
  readonly once: false;
  readonly dedupKey: string;
  readonly handler: TrustedHandler;
}

export type RegisteredHook = HookDefinition | TrustedDefinition;

/** Whether a hook is async (runs after its dispatch answered; docs/scaling.md). */
export function isAsyncHook(h: RegisteredHook): h is HookDefinition & { readonly async: AsyncHookSpec } {
  return h.type !== 'trusted' && h.async !== undefined;
}
