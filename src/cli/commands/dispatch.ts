// `hookwarden dispatch <event>`: prints the DispatchResult JSON on stdout; exit 0 proceed (allow,
// ask, passthrough), 2 deny, 1 usage/config error. Warnings go to stderr.
//
// Interrupts (SIGINT, SIGTERM) at any moment give the interrupted verdict, never an empty stdout:
// while the dispatch runs, its signal is aborted (running hooks are killed, the result says
// `interrupted: true`); before it starts (reading the input, loading the config), the answer is
// written at once from the built-in catalogue and the process exits. A deny exits 2; an
// interrupted dispatch that is not a deny (an event that cannot deny) exits 130 (SIGINT) or 143
// (SIGTERM): its hooks did not all run.

import { config as zodConfig } from 'zod';
import { DEFAULT_EVENTS, defineEvent, EventCatalogue } from '../../contract/events.js';
import { HookwardenError } from '../../contract/hookwarden-error.js';
import type { DispatchResult } from '../../contract/result.js';
import { interruptedResult } from '../../dispatch/dispatcher.js';
import { createExecutor, type Executor } from '../../executor/executor.js';
import type { ConfigSource } from '../../executor/options.js';
import { claimInterrupts, type InterruptSignal, signalExitCode } from '../interrupt.js';
import { readCliInput } from '../read-input.js';
import { UsageError } from '../usage-error.js';
import { readKeyFlag } from './audit.js';

export interface DispatchFlags {
  strict?: boolean;
  config?: string[];
  userConfig?: string[];
  policy?: string[];
  input?: string;
  tenant?: string;
  audit?: string;
  auditKey?: string;
  root?: string;
  packCache?: string;
  pretty?: boolean;
}

/**
 * The answer to an interrupt before the configuration is loaded: the built-in catalogue says whether
 * the event can deny; a name it does not know (a custom event, or a typo) cannot be checked yet, so
 * it is answered as deny-capable: no verdict, no permission.
 */
function interruptedEarly(event: string): DispatchResult {
  const known = new EventCatalogue(DEFAULT_EVENTS).get(event);
  return interruptedResult(known ?? defineEvent(event, { mode: 'serial', canDeny: true, honours: [] }));
}

const exitCodeOf = (result: DispatchResult, signal: InterruptSignal | undefined) =>
  result.decision === 'deny' ? 2 : signal !== undefined && result.interrupted ? signalExitCode(signal) : 0;

export async function runDispatch(event: string, flags: DispatchFlags): Promise<number> {
  const print = (result: DispatchResult) =>
    `${JSON.stringify(result, null, flags.pretty === true ? 2 : undefined)}\n`;
  const abort = new AbortController();
  // Read in the signal handler too: not narrowed by the assignments below.
  let stage = 'prepare' as 'prepare' | 'dispatch' | 'done';
  let signal: InterruptSignal | undefined;
  let executor: Executor | undefined;
  /** The exit code of the result on stdout, once one is printed (there is only ever one). */
  let printed: number | undefined;
  claimInterrupts((s, repeated) => {
    signal ??= s;
    if (!repeated && stage === 'dispatch') {
      abort.abort(new Error('interrupted')); // the dispatch answers at once, interrupted
      return;
    }
    if (printed !== undefined) {
      // The answer is out: a repeated signal stops waiting for cleanup (exit still kills hooks).
      if (repeated) process.exit(printed);
      return;
    }
    // Nothing runs yet (reading the input or the config may block), or a repeated signal: answer
    // now from the built-in catalogue, and exit.
    stage = 'done';
    const result = interruptedEarly(event);
    const code = exitCodeOf(result, s);
    printed = code;
    process.stdout.write(print(result), () => {
      const exit = () => process.exit(code);
      if (executor === undefined || repeated) exit();
      else executor.close().then(exit, exit);
    });
  });

  const config: ConfigSource[] = [
    ...(flags.userConfig ?? []).map((path) => ({ path, scope: 'user' as const })),
    ...(flags.config ?? []),
  ];
  if (config.length === 0 && (flags.policy ?? []).length === 0) {
    throw new UsageError(
      'dispatch needs at least one --config <file> (or --policy <file>); see `hookwarden dispatch --help`',
    );
  }
  if (flags.auditKey !== undefined && flags.audit === undefined)
    throw new UsageError('--audit-key keys the --audit file: give --audit <file.jsonl> too');
  const key = flags.auditKey === undefined ? undefined : readKeyFlag(flags.auditKey, '--audit-key');
  const input = await readCliInput(flags.input, event);
  // One dispatch per process: zod's compiled fast path for object schemas costs more to build than
  // it saves on the few parses a single dispatch makes.
  zodConfig({ jitless: true });
  const created = await createExecutor({
    config,
    policy: flags.policy ?? [],
    ...(flags.root !== undefined ? { root: flags.root } : {}),
    ...(flags.audit !== undefined
      ? { audit: key === undefined ? flags.audit : { file: flags.audit, key } }
      : {}),
    // One dispatch per process: start QuickJS workers only if a JS hook runs.
    prestartJsWorkers: false,
    ...(flags.strict === true ? { strict: true } : {}),
    // A url pin's bundle checked less than pollSeconds ago is used as cached: no request per dispatch.
    remotePacks: {
      revalidate: 'when-stale',
      ...(flags.packCache === undefined ? {} : { cacheDir: flags.packCache }),
    },
  });
  executor = created;
  // Interrupted while the config loaded: the early answer is out and the process exits (after
  // closing this executor, which the handler sees now); nothing more to do here.
  if (stage === 'done') return new Promise<number>(() => {});
  stage = 'dispatch';
  if (flags.tenant !== undefined && !created.tenants.includes(flags.tenant)) {
    process.stderr.write(
      `hookwarden: warning: --tenant: no tenant "${flags.tenant}" in the config's "tenants"; only trusted and policy hooks run for it\n`,
    );
  }
  try {
    const result = await created.dispatch(event, input, { signal: abort.signal, tenant: flags.tenant });
    stage = 'done';
    if (printed !== undefined) return printed; // a repeated signal answered already
    printed = exitCodeOf(result, signal);
    process.stdout.write(print(result));
    return printed;
  } catch (err) {
    stage = 'done';
    if (err instanceof HookwardenError && (err.code === 'unknown_event' || err.code === 'invalid_input')) {
      throw new UsageError(err.message);
    }
    throw err;
  } finally {
    await created.close();
  }
}
