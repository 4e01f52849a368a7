// SessionStart, Setup, CwdChanged and FileChanged hooks may set variables for the session: Claude
// Code gives them a CLAUDE_ENV_FILE and runs what they write as bash before each later Bash command.
// Hooks run by hookwarden write to their own (the dispatch judges it by the session-env rule and
// keeps what it admits as `sessionEnvScript`); the adapter appends those lines to the file Claude
// Code gave it, as they were written, so `export PATH="$PATH:/opt/x/bin"` keeps its meaning.
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { parseEnvScript } from '../../contract/env-script.js';
import { refusedEnvReason } from '../../contract/refused-env.js';

/**
 * The lines of `script` that may go to Claude Code's env file: assignment statements only, never a
 * loader variable (the dispatch judged the rest; this holds whatever answered, a daemon included).
 */
function writable(script: string): { lines: string[]; notes: string[] } {
  const parsed = parseEnvScript(script);
  const lines: string[] = [];
  const notes: string[] = [];
  for (const st of parsed.statements) {
    const bad =
      st.kind === 'refused'
        ? st.why
        : st.assignments.map((a) => refusedEnvReason(a.name)).find((r) => r !== undefined);
    if (bad === undefined && st.kind === 'assign') lines.push(st.text);
    else notes.push(`hookwarden: sessionEnv: line ${st.line}: ${bad}: not exported`);
  }
  if (parsed.lost !== undefined)
    notes.push(`hookwarden: sessionEnv: line ${parsed.lost.line} on: ${parsed.lost.why}: not exported`);
  return { lines, notes };
}

/** Whether the file at `fd` is empty or ends with a newline (so an appended line starts a line). */
function endsLine(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

/** Appends the kept statements to CLAUDE_ENV_FILE; returns notes on what was not written. */
export function appendEnvFile(path: string | undefined, script: string): string[] {
  const { lines, notes } = writable(script);
  if (lines.length === 0) return notes;
  if (path === undefined || path === '') {
    notes.push('hookwarden: sessionEnv: Claude Code gave no CLAUDE_ENV_FILE for this event: not exported');
    return notes;
  }
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
    writeSync(fd, `${endsLine(fd) ? '' : '\n'}${lines.join('\n')}\n`);
  } catch (err) {
    notes.push(
      `hookwarden: sessionEnv: cannot append to CLAUDE_ENV_FILE (${(err as NodeJS.ErrnoException).code})`,
    );
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return notes;
}
