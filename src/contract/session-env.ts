// Claude Code's CLAUDE_ENV_FILE: a SessionStart (Setup, CwdChanged, FileChanged) command hook writes
// `export NAME=value` lines to it, and those variables apply to the rest of the session. hookwarden
// reads them back into the answer's `sessionEnv` for the platform to apply. Dependency-free.
//
// A line is `[export] NAME=value`, where value is 'single-quoted' (literal), "double-quoted" (\" \\ \$
// and \` are escapes) or bare (up to the first whitespace). Blank lines and `#` comments are skipped.
// Anything else, and variables hookwarden refuses anywhere (loader and libc variables such as
// LD_PRELOAD), are listed as ignored, never applied.

import { ENV_NAME, refusedSessionEnvReason, type SessionEnvWriter } from './refused-env.js';

export interface SessionEnvRead {
  /** NAME → value, in file order (a later line wins). Null-prototype. */
  readonly env: Record<string, string>;
  /** What was not applied: `CLAUDE_ENV_FILE:<line>` for a line that does not parse, `sessionEnv.<NAME>` for a refused name. */
  readonly ignored: string[];
}

const LINE = /^\s*(?:export\s+)?([^=\s]+)=(.*)$/;

/**
 * The value of `rest` (the text after `=`), or undefined when it does not parse — or when bash would
 * expand something in it (`$PATH`, `$(…)`, backquotes): such a line is refused by name rather than
 * turned into a literal that means something else.
 */
function parseValue(rest: string): string | undefined {
  const text = rest.trim();
  if (!text.startsWith("'") && /(^|[^\\])[$`]/.test(text)) return undefined;
  if (text.startsWith("'")) {
    const end = text.indexOf("'", 1);
    return end === text.length - 1 ? text.slice(1, end) : undefined;
  }
  if (text.startsWith('"')) {
    let out = '';
    for (let i = 1; i < text.length; i++) {
      const c = text[i]!;
      if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) {
        out += text[++i];
      } else if (c === '"') {
        return i === text.length - 1 ? out : undefined;
      } else out += c;
    }
    return undefined;
  }
  return /\s/.test(text) ? undefined : text;
}

/**
 * Reads the `export` lines a hook wrote to CLAUDE_ENV_FILE. `source`, `eval` and any other command
 * are refused (listed by line number), as is a value bash would expand and every variable the
 * session-env rule refuses for this writer (refused-env.ts).
 */
export function readSessionEnv(text: string, writer?: SessionEnvWriter): SessionEnvRead {
  const env: Record<string, string> = Object.create(null);
  const ignored: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const m = LINE.exec(line);
    const value = m === null ? undefined : parseValue(m[2]!);
    if (m === null || value === undefined || !ENV_NAME.test(m[1]!) || value.includes('\0')) {
      ignored.push(`CLAUDE_ENV_FILE:${i + 1}`);
      return;
    }
    if (refusedSessionEnvReason(m[1]!, writer) !== undefined) {
      ignored.push(`sessionEnv.${m[1]}`);
      return;
    }
    env[m[1]!] = value;
  });
  return { env, ignored };
}
