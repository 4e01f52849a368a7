// Claude Code's CLAUDE_ENV_FILE: a SessionStart (Setup, CwdChanged, FileChanged) command hook writes
// `export NAME=value` lines to it, and those variables apply to the rest of the session. hookwarden
// reads them back into the answer's `sessionEnv` for the platform to apply. Dependency-free.
//
// A line is `[export] NAME=value`, where value is 'single-quoted' (literal), "double-quoted" (\" \\ \$
// and \` are escapes) or bare (up to the first whitespace). Blank lines and `#` comments are skipped.
// Anything else, and variables hookwarden refuses anywhere (loader and libc variables such as
// LD_PRELOAD), are listed as ignored, never applied.

import { ENV_NAME, refusedEnvReason } from './refused-env.js';

export interface SessionEnvRead {
  /** NAME → value, in file order (a later line wins). Null-prototype. */
  readonly env: Record<string, string>;
  /** What was not applied: `CLAUDE_ENV_FILE:<line>` for a line that does not parse, `sessionEnv.<NAME>` for a refused name. */
  readonly ignored: string[];
}

const LINE = /^\s*(?:export\s+)?([^=\s]+)=(.*)$/;

/** The value of `rest` (the text after `=`), or undefined when it does not parse. */
function parseValue(rest: string): string | undefined {
  const text = rest.trim();
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

/** Reads the `export` lines a hook wrote to CLAUDE_ENV_FILE. */
export function readSessionEnv(text: string): SessionEnvRead {
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
    if (refusedEnvReason(m[1]!) !== undefined) {
      ignored.push(`sessionEnv.${m[1]}`);
      return;
    }
    env[m[1]!] = value;
  });
  return { env, ignored };
}
