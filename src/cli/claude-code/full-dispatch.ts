// The adapter's full path: load the config, dispatch the Claude Code input, answer in Claude Code's
// protocol. Loaded only when a hook may run (quick-scan.ts decides). Config warnings are kept for
// the debug log (stderr when the answer is not a block: on exit 2 stderr is the reason Claude sees).
import './zod-jitless.js'; // first: before any zod schema is built (see there)
import { type Diagnostic, formatDiagnostic } from '../../config/diagnostics.js';
import { toClaudeCodeAnswer } from '../../contract/claude-code-answer.js';
import { defaultOnceDir } from '../../executor/once-file.js';
import { runOneDispatch } from '../one-dispatch.js';
import { UsageError } from '../usage-error.js';
import { failureAnswer, toCliAnswer } from './answer-io.js';
import { explain, refusedJsonc } from './dispatch-answer.js';
import type { AdapterFlags } from './flags.js';

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
    // Claude Code runs a `once` hook once per session; each event is a new adapter process.
    executorOptions: { onceStateDir: defaultOnceDir() },
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
