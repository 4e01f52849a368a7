// Ctrl-C (SIGINT) and SIGTERM for the CLI. Installed by main.ts before anything else is imported,
// so a signal at any moment after the entry script starts has a defined answer instead of Node's
// default (exit 130, nothing on stdout). Dependency-free on purpose: it must load in microseconds.
//
// A command that has its own answer to an interrupt (dispatch: the interrupted verdict; bench: no
// result) claims it; a signal that arrives before the claim is held and handed over when the claim
// comes. Other commands end at once with 128 + the signal number, as a shell expects.

export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** 128 + the signal number: what a shell reports for a process a signal ended. */
export const signalExitCode = (signal: InterruptSignal): number => (signal === 'SIGINT' ? 130 : 143);

type Responder = (signal: InterruptSignal) => void;

/** Commands that claim interrupts themselves (argv[2]); for them a early signal is held. */
const CLAIMING = new Set(['dispatch', 'bench']);

let received: InterruptSignal | undefined;
let responder: Responder | undefined;
let claiming = false;

function onSignal(signal: InterruptSignal): void {
  if (received !== undefined) {
    // A second signal: the first one's answer is under way (or printed); stop waiting for cleanup.
    process.exit(process.exitCode ?? signalExitCode(received));
  }
  received = signal;
  if (responder !== undefined) responder(signal);
  else if (!claiming) process.exit(signalExitCode(signal));
  // else: held until the command claims it (within milliseconds: it only has modules to load).
}

/**
 * Installs the SIGINT/SIGTERM handlers (once). `command` is the CLI's first argument: for a
 * command that claims interrupts, a signal before the claim is held, not acted on.
 */
export function installInterrupts(command: string | undefined): void {
  claiming = command !== undefined && CLAIMING.has(command);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/**
 * Makes `fn` the answer to an interrupt. A signal that already arrived is handed over at once
 * (synchronously, before this returns).
 */
export function claimInterrupts(fn: Responder): void {
  responder = fn;
  if (received !== undefined) fn(received);
}

/** The signal received and never claimed, if any (e.g. during `dispatch --help`). */
export function unclaimedInterrupt(): InterruptSignal | undefined {
  return responder === undefined ? received : undefined;
}
