// How a Gemini CLI hook's process is read, as Gemini CLI 0.61.0 reads it
// (@google/gemini-cli-core, hooks/hookRunner.js, HookRunner.executeCommandHook and
// convertPlainTextToHookOutput): the text is stdout, or stderr when stdout is empty, trimmed, at ANY
// exit code; it is parsed as JSON, and parsed again when it decodes to a string; an object is the
// answer, any other JSON value is no answer; text that is not JSON is an allow with a systemMessage at
// exit 0 (a warning at exit 1) and a deny with the text as its reason at any other exit code (a kill
// by a signal reads as 0). A timeout is no answer there; here it is a failure (onError).
//
// hookwarden is stricter in one place: exit 2 always blocks, with Gemini's own reason when its
// reading denies (the JSON's `reason`, or the text), else stderr or stdout (docs/agents.md lists
// the rows where the two differ).
import type { CommandOutcome } from '../contract/command-task.js';
import type { HookInput } from '../contract/types.js';
import {
  type CommandAnswer,
  crashFailure,
  decides,
  excerpt,
  type ProtocolHook,
  readAnswer,
  strictness,
} from './command-answer.js';

type Exited = Extract<CommandOutcome, { kind: 'exited' }>;

/** What Gemini CLI makes of a finished hook's output: a JSON object, plain text, or nothing. */
type GeminiReading =
  | { readonly kind: 'json'; readonly value: object }
  | { readonly kind: 'text'; readonly text: string; readonly exitCode: number }
  | { readonly kind: 'none' };

/** Gemini CLI 0.61.0's reading of a finished hook's stdout and stderr (executeCommandHook). */
function geminiReads(exitCode: number | null, stdout: string, stderr: string): GeminiReading {
  const text = stdout.trim() || stderr.trim();
  if (text === '') return { kind: 'none' };
  try {
    let parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'string') parsed = JSON.parse(parsed);
    return parsed !== null && typeof parsed === 'object' ? { kind: 'json', value: parsed } : { kind: 'none' };
  } catch {
    return { kind: 'text', text, exitCode: exitCode || 0 };
  }
}

/** Gemini's answer for plain text (convertPlainTextToHookOutput): a deny at exit codes past 1. */
function textAnswer(text: string, exitCode: number): Record<string, unknown> {
  if (exitCode === 0) return { systemMessage: text };
  if (exitCode === 1) return { systemMessage: `Warning: ${text}` };
  return { decision: 'deny', reason: text };
}

/** What Gemini decides from an answer object (DefaultHookOutput): deny, ask, or nothing. */
function geminiVerdict(
  raw: Record<string, unknown>,
): { decision: 'deny' | 'ask'; reason?: string } | undefined {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  // getEffectiveReason: stopReason, else reason, else "No reason provided".
  const reason = text(raw.stopReason) ?? text(raw.reason) ?? 'No reason provided';
  if (raw.continue === false || raw.decision === 'deny' || raw.decision === 'block')
    return { decision: 'deny', reason };
  if (raw.decision === 'ask')
    return text(raw.reason) === undefined
      ? { decision: 'ask' }
      : { decision: 'ask', reason: text(raw.reason)! };
  return undefined;
}

/**
 * The hook's answer as hookwarden reads it, never less strict than Gemini's: an answer Gemini reads
 * as a deny or an ask (whatever else it holds, or however hookwarden's schema judges it) is one here.
 */
function atLeastGemini(raw: Record<string, unknown>, def: ProtocolHook, input: HookInput): CommandAnswer {
  const answer = readAnswer(raw, def, input);
  const verdict = geminiVerdict(raw);
  if (verdict === undefined) return answer;
  const needed = verdict.decision === 'deny' ? 3 : 2;
  if (answer.kind === 'output' && strictness(answer, def) >= needed) return answer;
  return readAnswer(verdict, def, input);
}

/** A Gemini CLI command hook that exited (any code, or killed by a signal). */
export function geminiCommandAnswer(outcome: Exited, def: ProtocolHook, input: HookInput): CommandAnswer {
  const { exitCode, signal, stdout, stderr } = outcome;
  const read = geminiReads(exitCode, stdout, stderr);
  const raw =
    read.kind === 'json'
      ? (read.value as Record<string, unknown>)
      : read.kind === 'text'
        ? textAnswer(excerpt(read.text), read.exitCode)
        : undefined;
  if (exitCode === 2) {
    // Always a block here: Gemini's reason when it denies, else what the hook said.
    const own = raw === undefined ? undefined : geminiVerdict(raw);
    const said = own?.decision === 'deny' ? own.reason : undefined;
    const reason = excerpt(said ?? (raw === undefined ? stderr : '')) || 'hook exited with code 2';
    const blocked = readAnswer({ decision: 'deny', reason }, def, input);
    return blocked.kind === 'output' ? { ...blocked, exit2: true } : blocked;
  }
  const answer: CommandAnswer =
    raw === undefined
      ? { kind: 'output', output: undefined, unknownFields: [] }
      : atLeastGemini(raw, def, input);
  if (exitCode === 0) return answer;
  // Killed, or another code: what Gemini reads counts when it denies, asks or stops; otherwise the
  // hook failed (its onError applies), which is never less strict than Gemini's allow.
  if (decides(answer, def)) return answer;
  return crashFailure(exitCode, signal, stderr);
}
