// The adapter's word to hookwarden-client that it answered. The client runs the Node adapter as its
// child when the daemon cannot answer, with a pipe in HOOKWARDEN_CLIENT_ANSWER_FD; the adapter writes
// the exit code of the answer it printed there (one digit) as soon as it is printed. A child that
// ends without it never answered — node or hookwarden missing, a half-removed build, a crash before
// the adapter's own fail-closed handling took over — and the client answers the agent's fail-closed
// answer instead (native/client-fallback.c). Dependency-free.
import { closeSync, fstatSync, writeSync } from 'node:fs';

const NAME = 'HOOKWARDEN_CLIENT_ANSWER_FD';

let fd: number | undefined | null = null;

/** The pipe the client gave (once; undefined: none, or not a pipe of ours). */
function answerFd(): number | undefined {
  if (fd !== null) return fd;
  const value = process.env[NAME];
  delete process.env[NAME];
  fd = undefined;
  if (value === undefined || !/^\d{1,6}$/.test(value) || Number(value) <= 2) return fd;
  try {
    if (fstatSync(Number(value)).isFIFO()) fd = Number(value);
  } catch {
    // not open: no client waits for the word
  }
  return fd;
}

/** Tells hookwarden-client (if it ran this adapter) that an answer with exit `code` is printed. */
export function declareAnswer(code: number): void {
  const f = answerFd();
  if (f === undefined) return;
  fd = undefined;
  try {
    writeSync(f, String(code));
    closeSync(f);
  } catch {
    // the client is gone: nobody to tell
  }
}
