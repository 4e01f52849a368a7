// The pieces every dialect's reading of a finished command hook shares (command-protocol.ts): the
// answer type, failures, excerpts of its output, a block, and how strict an answer is (an ambiguous
// file's hooks are read in every dialect it could be, and the strictest reading counts).
import { DEFAULTS } from '../config/defaults.js';
import { type ErrorCode, type ErrorDetails, type HookError, hookError } from '../contract/error-codes.js';
import { type AnswerContext, parseHookOutput } from '../contract/parse-output.js';
import { capText } from '../contract/text-caps.js';
import type { HookInput, HookOutput } from '../contract/types.js';
import type { CommandHookDefinition } from '../registry/hook-definition.js';

/**
 * What the protocol reads of a hook: its event, dialect, agent event, onError, the other dialects an
 * ambiguous file is read in, and (Claude Code plugins) its plugin data. Command hooks, and wasm hooks,
 * which answer as they do.
 */
export type ProtocolHook = Pick<
  CommandHookDefinition,
  'event' | 'dialect' | 'agentEvent' | 'onError' | 'alsoReadAs'
> & {
  readonly command?: { readonly pluginData: string | undefined };
};

export type CommandAnswer =
  /** `exit2`: the command exited 2 (an async rewake hook wakes the agent whatever it maps to). */
  | {
      kind: 'output';
      output: HookOutput | undefined;
      unknownFields: string[];
      exit2?: true;
      /** What the hook wrote to CLAUDE_ENV_FILE: the dispatch judges it by the session-env rule. */
      envFile?: { readonly text: string; readonly truncated: boolean };
    }
  | { kind: 'failure'; error: HookError };

/** Trimmed, and within `max` UTF-8 bytes (the deny reason from stderr gets the reason cap). */
export function excerpt(text: string, max: number = DEFAULTS.maxReasonBytes): string {
  return capText(text.trim(), max);
}

export const fail = <C extends ErrorCode>(
  code: C,
  message: string,
  details?: ErrorDetails[C],
): CommandAnswer => ({
  kind: 'failure',
  error: hookError(code, message, details),
});

/** How an answer of the hook is read: its dialect, the input it was given, its agent event. */
export const answerContext = (def: ProtocolHook, input: HookInput): AnswerContext => ({
  dialect: def.dialect,
  toolInput: input.toolInput,
  agentEvent: def.agentEvent,
  input,
});

/** A raw answer (a JSON value) read in the hook's dialect: its output, or an invalid_output failure. */
export function readAnswer(raw: unknown, def: ProtocolHook, input: HookInput): CommandAnswer {
  const parsed = parseHookOutput(raw, def.event, answerContext(def, input));
  if (!parsed.ok) return fail('invalid_output', parsed.message);
  return { kind: 'output', output: parsed.output, unknownFields: parsed.unknownFields };
}

/** A block answer (exit 2, or a FreeCode crash), read like `{"decision":"block","reason":…}`. */
export function block(reason: string, def: ProtocolHook, context: AnswerContext): CommandAnswer {
  const parsed = parseHookOutput({ decision: 'block', reason }, def.event, context);
  if (!parsed.ok) return fail('invalid_output', parsed.message);
  return { kind: 'output', output: parsed.output, unknownFields: parsed.unknownFields };
}

/** A block from the hook's side that the process did not answer (e.g. it could not be given its input). */
export function blockAnswer(reason: string, def: ProtocolHook, input: HookInput): CommandAnswer {
  return block(reason, def, { dialect: def.dialect, toolInput: input.toolInput });
}

/** A process that ended other than with exit 0 or 2. */
export function crashFailure(
  exitCode: number | null,
  signal: string | null,
  stderr: string,
): Extract<CommandAnswer, { kind: 'failure' }> {
  const said = stderr.trim() ? `: ${excerpt(stderr, 500)}` : '';
  const answer =
    exitCode === null
      ? fail('nonzero_exit', `killed by ${signal ?? 'a signal'}${said}`, signal === null ? {} : { signal })
      : exitCode === 126 || exitCode === 127
        ? fail(
            'spawn_failed',
            `could not execute the hook (exit ${exitCode}): ${excerpt(stderr, 500) || 'command not found'}`,
            { exitCode },
          )
        : fail('nonzero_exit', `exited with code ${exitCode}${said}`, { exitCode });
  return answer as Extract<CommandAnswer, { kind: 'failure' }>;
}

/**
 * How strict an answer is, for the hook `def`: a deny or a stop (and a failure of a hook that fails
 * closed) 3, an ask or a defer 2, no opinion (a failure that is skipped too) 1, an allow 0.
 */
export function strictness(a: CommandAnswer, def: ProtocolHook): number {
  if (a.kind === 'failure') return def.onError === 'deny' ? 3 : 1;
  const o = a.output;
  if (o === undefined) return 1;
  if (o.decision === 'deny' || o.continue === false) return 3;
  if (o.decision === 'ask' || o.decision === 'defer') return 2;
  return o.decision === 'allow' ? 0 : 1;
}

/** Whether an answer stops what the event is about (a deny, an ask, a defer or a stop). */
export const decides = (a: CommandAnswer, def: ProtocolHook): boolean =>
  a.kind === 'output' && strictness(a, def) >= 2;
