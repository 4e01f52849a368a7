// The adapter's full path: load the config, dispatch the Claude Code input, answer in Claude Code's
// protocol. Loaded only when a hook may run (quick-scan.ts decides). Config warnings are kept for
// the debug log (stderr when the answer is not a block: on exit 2 stderr is the reason Claude sees).
import './zod-jitless.js'; // first: before any zod schema is built (see there)
import { type Diagnostic, formatDiagnostic } from '../../config/diagnostics.js';
import { readJsonFile } from '../../config/read-json.js';
import { toClaudeCodeAnswer } from '../../contract/claude-code-answer.js';
import { isObject } from '../../contract/messages.js';
import type { DispatchResult } from '../../contract/result.js';
import { type Interruption, runOneDispatch } from '../one-dispatch.js';
import { UsageError } from '../usage-error.js';
import { failureAnswer, toCliAnswer } from './answer-io.js';
import type { AdapterFlags } from './flags.js';
import { refusedRouting } from './routing.js';

/** The reason of a result cut short by the adapter's --timeout or a signal. */
export function explain(
  result: DispatchResult,
  why: Interruption | undefined,
  flags: AdapterFlags,
): DispatchResult {
  if (why === undefined || result.decision !== 'deny' || result.interrupted !== true) return result;
  const reason =
    why === 'deadline'
      ? `no verdict within --timeout ${flags.timeout} s: running hooks were stopped`
      : `interrupted (${why}) before a verdict`;
  return { ...result, reason };
}

/** Files the fast path could not parse as JSON are checked here, through the loader's reader. */
export async function refusedJsonc(paths: readonly string[]): Promise<string | undefined> {
  for (const path of paths) {
    const read = await readJsonFile(path);
    if (read.ok && isObject(read.value)) {
      const refusal = refusedRouting(path, read.value);
      if (refusal !== undefined) return refusal;
    }
  }
  return undefined;
}

export interface FullDispatchOptions {
  /** Config files the fast path could not parse (checked here for adapter hooks). */
  readonly unparsed: readonly string[];
  /** Notes for the debug log from the fast path (why the daemon was not used). */
  readonly notes: readonly string[];
  /** What is left of --timeout. */
  readonly deadlineMs: number | undefined;
}

export async function runFullDispatch(
  flags: AdapterFlags,
  event: string,
  input: Record<string, unknown>,
  { unparsed, notes, deadlineMs }: FullDispatchOptions,
): Promise<number> {
  const warnings: string[] = [...notes];
  return runOneDispatch({
    command: 'claude-code',
    flags,
    event,
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
    readInput: async () => {
      const refusal = await refusedJsonc(unparsed);
      if (refusal !== undefined) throw new UsageError(refusal);
      return { event, input };
    },
    onWarning: (d: Diagnostic) => warnings.push(`hookwarden: ${d.severity}: ${formatDiagnostic(d)}`),
    answer: (result, why) => toCliAnswer(toClaudeCodeAnswer(event, explain(result, why, flags)), warnings),
    fail: (err, ev) => failureAnswer(ev ?? event, err),
  });
}
