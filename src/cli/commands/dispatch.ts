// `hookwarden dispatch <event>`: prints the DispatchResult JSON on stdout; exit 0 proceed (allow,
// ask, passthrough), 2 deny, 1 usage/config error. Warnings go to stderr.
//
// Interrupts (SIGINT, SIGTERM) at any moment give the interrupted verdict, never an empty stdout
// (one-dispatch.ts). A deny exits 2; an interrupted dispatch that is not a deny (an event that
// cannot deny) exits 130 (SIGINT) or 143 (SIGTERM): its hooks did not all run.

import { HookwardenError } from '../../contract/hookwarden-error.js';
import type { DispatchResult } from '../../contract/result.js';
import { signalExitCode } from '../interrupt.js';
import { type DispatchFlags, type Interruption, runOneDispatch } from '../one-dispatch.js';
import { readCliInput } from '../read-input.js';
import { UsageError } from '../usage-error.js';

export type { DispatchFlags } from '../one-dispatch.js';

const exitCodeOf = (result: DispatchResult, why: Interruption | undefined) =>
  result.decision === 'deny'
    ? 2
    : why !== undefined && why !== 'deadline' && result.interrupted
      ? signalExitCode(why)
      : 0;

export function runDispatch(
  event: string,
  flags: DispatchFlags & { input?: string; pretty?: boolean },
): Promise<number> {
  return runOneDispatch({
    command: 'dispatch',
    flags,
    event,
    readInput: async () => ({ event, input: await readCliInput(flags.input, event) }),
    answer: (result, why) => ({
      code: exitCodeOf(result, why),
      stdout: `${JSON.stringify(result, null, flags.pretty === true ? 2 : undefined)}\n`,
    }),
    fail: (err) => {
      if (err instanceof HookwardenError && (err.code === 'unknown_event' || err.code === 'invalid_input'))
        throw new UsageError(err.message);
      throw err;
    },
  });
}
