// Two steps of the adapter's full path that the daemon (daemon/answer-call.ts) takes too, kept apart
// from full-dispatch.ts because that module turns zod's compiled parsers off for the whole process
// (zod-jitless.ts): right for a one-shot adapter, a cost on every dispatch of a long-lived daemon.
import { readJsonFile } from '../../config/read-json.js';
import { isObject } from '../../contract/messages.js';
import { type DispatchResult, dispatchResult } from '../../contract/result.js';
import type { Interruption } from '../one-dispatch.js';
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
  return dispatchResult({ ...result, reason });
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
