// One statement of a bash script as the CLAUDE_ENV_FILE reader (env-script.ts) sees it: its words,
// and whether a list operator, a redirection or `&` joins or follows them. Dependency-free.

import { BASH_RESERVED_WORDS, Lost, type Word } from './bash-word-parts.js';
import type { Scanner } from './bash-words.js';

/** One statement's words and what joins or follows them. */
export interface RawStatement {
  readonly words: Word[];
  readonly start: number;
  readonly end: number;
  readonly next: number;
  readonly joined: boolean;
  readonly redirect: boolean;
  readonly background: boolean;
}

/** Reads one statement from `p` (not blank, not a newline, not a comment). */
export function readStatement(sc: Scanner, start: number): RawStatement {
  const words: Word[] = [];
  let joined = false;
  let redirect = false;
  let pending = false; // after &&, ||, |: the list goes on past newlines
  let commandStart = true;
  let end = start;
  let p = start;
  for (;;) {
    p = sc.blanks(p);
    const c = sc.at(p);
    if (c === undefined) {
      if (pending) throw new Lost('ends after an operator', start);
      return { words, start, end, next: p, joined, redirect, background: false };
    }
    if (c === '\n') {
      p++;
      if (pending) continue;
      return { words, start, end, next: p, joined, redirect, background: false };
    }
    if (c === '#') {
      while (sc.at(p) !== undefined && sc.at(p) !== '\n') p++;
      continue;
    }
    if (c === ';') {
      if (sc.at(p + 1) === ';' || words.length === 0 || pending)
        throw new Lost('has a ";" bash cannot parse here', p);
      return { words, start, end, next: p + 1, joined, redirect, background: false };
    }
    if (c === '(' || c === ')') throw new Lost('has a subshell or a function', p);
    if (c === '&' && sc.at(p + 1) === '&') {
      if (words.length === 0 || pending) throw new Lost('has an "&&" bash cannot parse here', p);
      joined = pending = commandStart = true;
      p += 2;
      continue;
    }
    if (c === '|') {
      if (words.length === 0 || pending) throw new Lost('has a "|" bash cannot parse here', p);
      joined = pending = commandStart = true;
      p += sc.at(p + 1) === '|' || sc.at(p + 1) === '&' ? 2 : 1;
      continue;
    }
    if (c === '<' || c === '>' || (c === '&' && sc.at(p + 1) === '>')) {
      if (sc.at(p + 1) === '(') throw new Lost('has a process substitution', p);
      if (c === '<' && sc.at(p + 1) === '<') throw new Lost('has a here-document', p);
      redirect = true;
      p++;
      while ('<>&|'.includes(sc.at(p) ?? 'x')) p++;
      continue;
    }
    if (c === '&') {
      if (words.length === 0 || pending) throw new Lost('has an "&" bash cannot parse here', p);
      return { words, start, end, next: p + 1, joined, redirect, background: true };
    }
    const w = sc.word(p);
    if (commandStart) {
      const only = w.segs.length === 1 && w.segs[0]!.k === 'text' && !w.segs[0]!.q ? w.segs[0]!.s : undefined;
      if (only !== undefined && BASH_RESERVED_WORDS.has(only))
        throw new Lost(`has "${only}", a compound command`, w.start);
    }
    commandStart = false;
    pending = false;
    words.push(w);
    end = p = w.end;
  }
}
