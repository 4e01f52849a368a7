// An adapter's full path: load the config, dispatch the agent's input, answer in the agent's
// protocol. Loaded only when a hook may run (quick-scan.ts decides). Config warnings are kept for
// the agent's log (stderr when the answer is not a block: on exit 2 stderr is the reason shown).
import '../claude-code/zod-jitless.js'; // first: before any zod schema is built (see there)
import { type Diagnostic, formatDiagnostic } from '../../config/diagnostics.js';
import { defaultOnceDir } from '../../executor/once-file.js';
import { explain, refusedJsonc } from '../claude-code/dispatch-answer.js';
import type { AdapterFlags } from '../claude-code/flags.js';
import { runOneDispatch } from '../one-dispatch.js';
import { UsageError } from '../usage-error.js';
import { failureAnswer, toCliAnswer } from './answer.js';
import type { AdapterInput, AdapterSpec } from './spec.js';

export interface FullDispatchOptions {
  /** Config files the fast path could not parse (checked here for adapter hooks). */
  readonly unparsed: readonly string[];
  /** Notes for the agent's log from the fast path (why the daemon was not used). */
  readonly notes: readonly string[];
  /** What is left of --timeout. */
  readonly deadlineMs: number | undefined;
}

export async function runFullDispatch(
  spec: AdapterSpec,
  flags: AdapterFlags,
  read: AdapterInput,
  { unparsed, notes, deadlineMs }: FullDispatchOptions,
): Promise<number> {
  const warnings: string[] = [...notes];
  return runOneDispatch({
    command: spec.command,
    // An agent runs a `once` hook once per session; each event is a new adapter process.
    executorOptions: { onceStateDir: defaultOnceDir() },
    flags,
    event: read.dispatchEvent,
    ...(deadlineMs === undefined ? {} : { deadlineMs }),
    readInput: async () => {
      const refusal = await refusedJsonc(unparsed);
      if (refusal !== undefined) throw new UsageError(refusal);
      return { event: read.dispatchEvent, input: read.input };
    },
    onWarning: (d: Diagnostic) => warnings.push(`hookwarden: ${d.severity}: ${formatDiagnostic(d)}`),
    answer: (result, why) =>
      toCliAnswer(spec, spec.answer(read, explain(result, why, flags), flags), warnings),
    fail: (err) => failureAnswer(spec, read.event, err),
  });
}
