// One dispatch from the command line, as `hookwarden dispatch` and `hookwarden claude-code` run it:
// read the input, load the config, dispatch, print ONE answer, close. What differs between the two
// commands (where the event comes from, how a result is printed, what an error answers) is the spec.
//
// Interrupts (SIGINT, SIGTERM) and a deadline at any moment give the interrupted verdict, never an
// empty answer: while the dispatch runs, its signal is aborted (running hooks are killed, the result
// says `interrupted: true`); before it starts (reading the input, loading the config), the answer is
// written at once from the built-in catalogue (an event not known yet answers as deny-capable) and
// the process exits.

import { config as zodConfig } from 'zod';
import { DEFAULT_EVENTS, defineEvent, EventCatalogue } from '../contract/events.js';
import type { DispatchResult } from '../contract/result.js';
import { interruptedResult } from '../dispatch/dispatcher.js';
import { createExecutor, type Executor } from '../executor/executor.js';
import type { ExecutorOptions } from '../executor/options.js';
import { declareAnswer } from './adapter/answer-fd.js';
import { startDeadline } from './deadline.js';
import { sourceOptions } from './executor-flags.js';
import { claimInterrupts, type InterruptSignal } from './interrupt.js';
import { UsageError } from './usage-error.js';

export interface DispatchFlags {
  strict?: boolean;
  config?: string[];
  userConfig?: string[];
  policy?: string[];
  tenant?: string;
  audit?: string;
  auditKey?: string;
  auditRequired?: boolean;
  root?: string;
  packCache?: string;
  /** Milliseconds to wait for async hooks after the answer is printed (default CLI_ASYNC_WAIT_MS). */
  asyncWait?: string;
}

/** Default of --async-wait: how long the CLI waits for async hooks after printing the answer. */
const CLI_ASYNC_WAIT_MS = 60_000;

function asyncWaitOf(flag: string | undefined): number {
  if (flag === undefined) return CLI_ASYNC_WAIT_MS;
  const n = Number(flag);
  if (!/^\d{1,9}$/.test(flag) || !Number.isSafeInteger(n))
    throw new UsageError(`--async-wait: expected a whole number of milliseconds, got "${flag}"`);
  return n;
}

/** What a command prints: stdout, stderr and the exit code (one answer per process). */
export interface CliAnswer {
  readonly code: number;
  readonly stdout: string;
  readonly stderr?: string;
}

/** Why there is no verdict: a signal, or the deadline the caller set. */
export type Interruption = InterruptSignal | 'deadline';

export interface DispatchSpec {
  /** The command's name, for messages (`dispatch`, `claude-code`). */
  readonly command: string;
  /** Executor options the command adds (the adapter's shared `once` state). */
  readonly executorOptions?: { readonly onceStateDir?: string };
  readonly flags: DispatchFlags;
  /** The event and its input (called once, first). */
  readInput(): Promise<{ event: string; input: Record<string, unknown> }>;
  /** The event when it is known before the input is read (the `dispatch` argument). */
  readonly event?: string;
  /** The answer for a result; `interruption` says why the dispatch was cut short, if it was. */
  answer(result: DispatchResult, interruption: Interruption | undefined): CliAnswer | Promise<CliAnswer>;
  /** The answer to an error (default: rethrown, for run.ts to report). */
  fail?(err: unknown, event: string | undefined): CliAnswer;
  /** Milliseconds after which the dispatch is cut short as if interrupted. */
  readonly deadlineMs?: number;
  /** Config warnings (default: printed on stderr by the executor). */
  onWarning?: ExecutorOptions['onWarning'];
}

/**
 * The interrupted answer before the configuration is loaded: the built-in catalogue says whether the
 * event can deny; a name it does not know (a custom event, a typo, none yet) is answered as
 * deny-capable: no verdict, no permission.
 */
function interruptedEarly(event: string | undefined): DispatchResult {
  const known = event === undefined ? undefined : new EventCatalogue(DEFAULT_EVENTS).get(event);
  return interruptedResult(
    known ?? defineEvent(event ?? 'unknown', { mode: 'serial', canDeny: true, honours: [] }),
  );
}

/** The createExecutor options of a one-shot CLI dispatch. */
export function cliExecutorOptions(flags: DispatchFlags): ExecutorOptions {
  return {
    ...sourceOptions(flags),
    // One dispatch per process: start QuickJS workers only if a JS hook runs.
    prestartJsWorkers: false,
    ...(flags.strict === true ? { strict: true } : {}),
    // A url pin's bundle checked less than pollSeconds ago is used as cached: no request per dispatch.
    remotePacks: {
      revalidate: 'when-stale',
      ...(flags.packCache === undefined ? {} : { cacheDir: flags.packCache }),
    },
  };
}

/** After an early answer the process is exiting: never print a second one. */
const exiting = () => new Promise<number>(() => {});

/** The executor's options: the flags' (at least one file is required), then the command's own. */
function executorOptionsOf(spec: DispatchSpec): ExecutorOptions {
  const flags = spec.flags;
  if ((flags.config ?? []).length + (flags.userConfig ?? []).length + (flags.policy ?? []).length === 0)
    throw new UsageError(
      `${spec.command} needs at least one --config <file> (or --policy <file>); see \`hookwarden ${spec.command} --help\``,
    );
  return {
    ...cliExecutorOptions(flags),
    ...spec.executorOptions,
    ...(spec.onWarning === undefined ? {} : { onWarning: spec.onWarning }),
  };
}

function warnUnknownTenant(executor: Executor, tenant: string | undefined): void {
  if (tenant === undefined || executor.tenants.includes(tenant)) return;
  process.stderr.write(
    `hookwarden: warning: --tenant: no tenant "${tenant}" in the config's "tenants"; only trusted and policy hooks run for it\n`,
  );
}

/** Runs one dispatch and prints its one answer; resolves with the exit code. */
export async function runOneDispatch(spec: DispatchSpec): Promise<number> {
  const abort = new AbortController();
  /** Aborted by an interrupt after the answer is out: stop waiting for async hooks. */
  const drain = new AbortController();
  // Read in the handlers too: not narrowed by the assignments below.
  let stage = 'prepare' as 'prepare' | 'dispatch' | 'done';
  let event = spec.event;
  let cause: Interruption | undefined;
  let executor: Executor | undefined;
  /** The exit code of the answer printed, once one is (there is only ever one). */
  let printed: number | undefined;
  const emit = (a: CliAnswer, then?: () => void) => {
    printed = a.code;
    if (a.stderr !== undefined && a.stderr !== '') process.stderr.write(a.stderr);
    process.stdout.write(a.stdout, then);
    declareAnswer(a.code);
    return a.code;
  };
  const interrupt = (why: Interruption, repeated: boolean) => {
    cause ??= why;
    if (!repeated && stage === 'dispatch') {
      abort.abort(new Error('interrupted')); // the dispatch answers at once, interrupted
      return;
    }
    if (printed !== undefined) {
      // The answer is out: a signal stops waiting for async hooks (aborted, each with its record);
      // a repeated one stops waiting for cleanup too (exit still kills hooks).
      if (repeated) process.exit(printed);
      drain.abort();
      return;
    }
    // Nothing runs yet (reading the input or the config may block), or a repeated signal: answer
    // now from the built-in catalogue, and exit.
    stage = 'done';
    Promise.resolve(spec.answer(interruptedEarly(event), why)).then((a) =>
      emit(a, () => {
        const exit = () => process.exit(a.code);
        if (executor === undefined || repeated) exit();
        else executor.close().then(exit, exit);
      }),
    );
  };
  claimInterrupts(interrupt);
  const deadline = startDeadline(spec.deadlineMs, () => interrupt('deadline', false));
  // A function, not a comparison: the handlers change `stage` while this one awaits.
  const answeredEarly = () => stage === 'done';
  let asyncWaitMs = 0;
  try {
    const flags = spec.flags;
    const options = executorOptionsOf(spec);
    asyncWaitMs = asyncWaitOf(flags.asyncWait);
    const read = await spec.readInput();
    event = read.event;
    if (answeredEarly()) return exiting();
    // One dispatch per process: zod's compiled fast path for object schemas costs more to build than
    // it saves on the few parses a single dispatch makes.
    zodConfig({ jitless: true });
    executor = await createExecutor(options);
    // Interrupted while the config loaded: the early answer is out and the process exits (after
    // closing this executor, which the handler sees now); nothing more to do here.
    if (answeredEarly()) return exiting();
    executor.on('rewake', (e) => process.stderr.write(`hookwarden: rewake: ${JSON.stringify(e)}\n`));
    stage = 'dispatch';
    warnUnknownTenant(executor, flags.tenant);
    const result = await executor.dispatch(event, read.input, { signal: abort.signal, tenant: flags.tenant });
    stage = 'done';
    if (printed !== undefined) return printed; // a repeated signal answered already
    return emit(await spec.answer(result, result.interrupted === true ? cause : undefined));
  } catch (err) {
    stage = 'done';
    if (printed !== undefined) return exiting();
    if (spec.fail === undefined) throw err;
    return emit(spec.fail(err, event));
  } finally {
    if (deadline !== undefined) clearTimeout(deadline);
    // Async hooks run now that the answer is out (interrupted: aborted, each with its record).
    await executor?.close({ drainMs: cause === undefined ? asyncWaitMs : 0, signal: drain.signal });
  }
}
