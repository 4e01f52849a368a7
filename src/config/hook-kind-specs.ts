// The parts of a hook spec that depend on its kind, checked at load with diagnostics naming the JSON
// path: default timeouts, fields of another kind, onError as written, and a prompt/agent hook's
// evaluator (it runs only if the platform registered an evaluator for its type; otherwise it is
// skipped with a warning that says how to allow it). An http hook's part is http-hook-spec.ts.
import type { OnError } from '../contract/decisions.js';
import { type Dialect, dialectTimeoutMs } from '../contract/dialects.js';
import type { EvaluatorType } from '../contract/evaluator.js';
import { joinPath, renderValue } from '../contract/messages.js';
import type { EvaluatorHookSpec } from '../registry/hook-definition.js';
import { DEFAULTS } from './defaults.js';
import type { DiagnosticSink } from './diagnostics.js';
import type { HookTypePolicy } from './hook-type-policy.js';
import type { RawHookSpec } from './schema.js';

export type HookKind = 'command' | 'js' | 'wasm' | 'http' | EvaluatorType;

export interface KindContext {
  readonly sink: DiagnosticSink;
  readonly hookTypes: HookTypePolicy | undefined;
  readonly claudeEvent: string | undefined;
}

/** Default timeout (ms) of a hook kind; command and http hooks take their dialect's at `event`. */
export function defaultTimeoutMs(kind: HookKind, dialect: Dialect, event: string): number {
  if (kind === 'js') return DEFAULTS.js.timeoutMs;
  if (kind === 'wasm') return DEFAULTS.wasm.timeoutMs;
  if (kind === 'prompt') return DEFAULTS.evaluator.promptTimeoutMs;
  if (kind === 'agent') return DEFAULTS.evaluator.agentTimeoutMs;
  return dialectTimeoutMs(dialect, event);
}

const FIELDS: Record<'command' | 'js' | 'wasm' | 'http' | 'evaluator', readonly (keyof RawHookSpec)[]> = {
  command: [
    'command',
    'shell',
    'argv',
    'args',
    'env',
    'inheritEnv',
    'isolation',
    'writable',
    'runAs',
    'rlimits',
  ],
  js: ['source', 'code', 'memoryBytes'],
  wasm: ['fuel'],
  http: ['url', 'headers', 'allowedEnvVars'],
  evaluator: ['prompt', 'model', 'continueOnBlock'],
};
/** Fields that say what a hook runs: on a hook of another kind they are an error, the rest a warning. */
const DEFINING = new Set<string>(['command', 'argv', 'args', 'source', 'code', 'url', 'prompt']);

/**
 * Checks that a hook carries no field of another kind: a defining one (`url` on a command hook)
 * skips it, another (`env` on an http hook) is ignored with a warning. Returns false to skip.
 */
export function checkForeignFields(
  kind: HookKind,
  spec: RawHookSpec,
  path: string,
  sink: DiagnosticSink,
): boolean {
  const own = kind === 'prompt' || kind === 'agent' ? 'evaluator' : kind;
  // Command, JS and wasm hooks check each other's fields themselves (js-spec.ts, wasm-spec.ts).
  const others =
    own === 'command' || own === 'js' || own === 'wasm'
      ? (['http', 'evaluator', ...(own === 'wasm' ? [] : (['wasm'] as const))] as const)
      : (['command', 'js', 'wasm', 'http', 'evaluator'] as const).filter((k) => k !== own);
  let ok = true;
  for (const other of others) {
    for (const key of FIELDS[other]) {
      if (spec[key] === undefined) continue;
      const whose = other === 'evaluator' ? 'prompt and agent' : other;
      if (DEFINING.has(key)) {
        sink.error(
          joinPath(path, key),
          `"${key}" belongs to ${whose} hooks, not ${kind} hooks, got ${renderValue(spec[key])}`,
        );
        ok = false;
      } else sink.warn(joinPath(path, key), `"${key}" applies to ${whose} hooks only and is ignored`);
    }
  }
  return ok;
}

/** What the identity of an http or evaluator hook leaves out: where it was registered. */
export function kindIdentity(body: object): unknown {
  const {
    claudeEvent: _event,
    admittedBy: _by,
    ...rest
  } = body as { claudeEvent?: unknown; admittedBy?: unknown };
  return rest;
}

/** Events where Claude Code's onFailure "block" has no effect (exit 2 there means "keep working"). */
const NO_BLOCK_ON_FAILURE = new Set(['AfterTurn', 'AfterSubagent', 'TaskCompleted', 'TeammateIdle']);

/**
 * `onError`, or Claude Code's `onFailure` ("block" = "deny", except where it has no effect;
 * "continue" = "skip"); undefined when neither is written, null (after an error) when both are.
 */
export function writtenOnError(
  spec: RawHookSpec,
  path: string,
  sink: DiagnosticSink,
  event: string,
): OnError | undefined | null {
  if (spec.onFailure === undefined) return spec.onError;
  if (spec.onError !== undefined) {
    sink.error(
      joinPath(path, 'onFailure'),
      `give either onError or onFailure (Claude Code's spelling), not both, got ${renderValue(spec.onFailure)}`,
    );
    return null;
  }
  if (spec.onFailure === 'continue') return 'skip';
  return NO_BLOCK_ON_FAILURE.has(event) ? undefined : 'deny';
}

/** The evaluator part of a prompt or agent hook. */
export function evaluatorSpec(
  spec: RawHookSpec,
  path: string,
  ctx: KindContext,
): EvaluatorHookSpec | undefined {
  if (spec.prompt === undefined) {
    ctx.sink.error(path, `a ${spec.type} hook needs "prompt", got none`);
    return undefined;
  }
  if (spec.maxOutputBytes !== undefined)
    ctx.sink.warn(
      joinPath(path, 'maxOutputBytes'),
      `"maxOutputBytes" does not apply to ${spec.type} hooks and is ignored`,
    );
  return Object.freeze({
    prompt: spec.prompt,
    model: spec.model,
    continueOnBlock: spec.continueOnBlock,
    claudeEvent: ctx.claudeEvent,
  });
}

/** The message of a prompt/agent hook skipped for want of an evaluator. */
export function noEvaluatorMessage(type: EvaluatorType): string {
  return `hook type "${type}" needs an evaluator, and none is registered: the platform embedding hookwarden answers ${type} hooks with createExecutor({ evaluators: { ${type}: async (hook, input, { signal }) => output } }) (see docs/library.md); the command line runs none`;
}
