// SessionStart, Setup, CwdChanged and FileChanged hooks may set variables for the session: Claude
// Code gives them a CLAUDE_ENV_FILE to append `export` lines to. Hooks run by hookwarden write to
// their own (the dispatch reads it back into `sessionEnv`); the adapter appends those variables to
// the file Claude Code gave it, so Claude Code's Bash commands see them as before.
import { appendFileSync } from 'node:fs';
import { ENV_NAME, refusedSessionEnvReason } from '../../contract/refused-env.js';
import { shellQuote } from './routing.js';

/** Appends `export NAME='value'` lines; returns notes on what was not written. */
export function appendEnvFile(path: string | undefined, env: Readonly<Record<string, string>>): string[] {
  const notes: string[] = [];
  const lines: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    // PATH passed the per-hook check in the dispatch (a policy hook's); the rest are refused here too.
    const refused = !ENV_NAME.test(name)
      ? `"${name}" is not a variable name`
      : name === 'PATH'
        ? undefined
        : refusedSessionEnvReason(name);
    if (refused !== undefined || value.includes('\u0000')) {
      notes.push(`hookwarden: sessionEnv: ${refused ?? `"${name}" holds a NUL byte`}: not exported`);
      continue;
    }
    lines.push(`export ${name}=${shellQuote(value)}\n`);
  }
  if (lines.length === 0) return notes;
  if (path === undefined || path === '') {
    notes.push('hookwarden: sessionEnv: Claude Code gave no CLAUDE_ENV_FILE for this event: not exported');
    return notes;
  }
  try {
    appendFileSync(path, lines.join(''));
  } catch (err) {
    notes.push(
      `hookwarden: sessionEnv: cannot append to CLAUDE_ENV_FILE (${(err as NodeJS.ErrnoException).code})`,
    );
  }
  return notes;
}
