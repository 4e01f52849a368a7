// The words of a bash script as bash reads them, for the CLAUDE_ENV_FILE reader (env-script.ts) and
// the Bash rule splitter (registry/bash-commands.ts): quotes, escapes, `$NAME` and `${NAME…}`
// expansions, and where a substitution, an unterminated quote or a construct it does not follow
// begins. Linear in the text's length; dependency-free.

import { Lost, type Seg, showable, type ValuePart, type Word } from './bash-word-parts.js';

const NAME_START = /[A-Za-z_]/;
const NAME_CHAR = /[A-Za-z0-9_]/;
/** Characters a `${NAME:-word}` word may hold here (besides `$NAME`, `${NAME}`). */
const OP_WORD_CHAR = /[A-Za-z0-9_@%+=:,./-]/;
const METACHAR = ' \t\n;&|()<>';

export class Scanner {
  readonly #s: string;
  readonly #lineStarts: number[] = [0];

  constructor(text: string) {
    this.#s = text;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.#lineStarts.push(i + 1);
  }

  /** 1-based line of offset `pos`. */
  line(pos: number): number {
    let lo = 0;
    let hi = this.#lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#lineStarts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  get lines(): number {
    return this.#s.endsWith('\n') ? this.#lineStarts.length - 1 : this.#lineStarts.length;
  }

  slice(a: number, b: number): string {
    return this.#s.slice(a, b);
  }

  /** Skips spaces, tabs and backslash-newlines. */
  blanks(p: number): number {
    const s = this.#s;
    while (p < s.length) {
      if (s[p] === ' ' || s[p] === '\t') p++;
      else if (s[p] === '\\' && s[p + 1] === '\n') p += 2;
      else break;
    }
    return p;
  }

  word(p: number): Word {
    const s = this.#s;
    const start = p;
    const segs: Seg[] = [];
    while (p < s.length && !METACHAR.includes(s[p]!)) {
      const c = s[p]!;
      if (c === '\\') {
        if (s[p + 1] === '\n') p += 2;
        else if (p + 1 >= s.length) throw new Lost('ends in a backslash', start);
        else {
          text(segs, s[p + 1]!, true);
          p += 2;
        }
      } else if (c === "'") {
        const close = s.indexOf("'", p + 1);
        if (close < 0) throw new Lost('has an unterminated single quote', start);
        text(segs, s.slice(p + 1, close), true);
        p = close + 1;
      } else if (c === '"') p = this.#double(p + 1, segs, start);
      else if (c === '$') p = this.#dollar(p, segs, false);
      else if (c === '`') {
        p = this.#backquote(p + 1);
        segs.push({ k: 'subst' });
      } else {
        text(segs, c, false);
        p++;
      }
    }
    return { segs, start, end: p };
  }

  #double(p: number, segs: Seg[], start: number): number {
    const s = this.#s;
    text(segs, '', true); // "" is a word too
    while (p < s.length) {
      const c = s[p]!;
      if (c === '"') return p + 1;
      if (c === '\\' && p + 1 < s.length && '$`"\\\n'.includes(s[p + 1]!)) {
        if (s[p + 1] !== '\n') text(segs, s[p + 1]!, true);
        p += 2;
      } else if (c === '$') p = this.#dollar(p, segs, true);
      else if (c === '`') {
        p = this.#backquote(p + 1);
        segs.push({ k: 'subst' });
      } else {
        text(segs, c, true);
        p++;
      }
    }
    throw new Lost('has an unterminated double quote', start);
  }

  /** An expansion at `p` (a `$`). */
  #dollar(p: number, segs: Seg[], inDouble: boolean): number {
    const s = this.#s;
    const next = s[p + 1];
    if (next === '(') {
      if (s[p + 2] === '(') {
        segs.push({ k: 'opaque', what: 'an arithmetic expansion' });
        return this.#commandSub(p + 2);
      }
      segs.push({ k: 'subst' });
      return this.#commandSub(p + 2);
    }
    if (next === '{') return this.#braced(p + 2, segs);
    if (next !== undefined && NAME_START.test(next)) {
      let e = p + 2;
      while (e < s.length && NAME_CHAR.test(s[e]!)) e++;
      const name = s.slice(p + 1, e);
      segs.push(name === '_' ? { k: 'opaque', what: '$_' } : { k: 'param', name });
      return e;
    }
    if (next === "'" && !inDouble) {
      // $'…': ANSI-C quoting.
      for (let e = p + 2; e < s.length; e++) {
        if (s[e] === '\\') e++;
        else if (s[e] === "'") {
          segs.push({ k: 'opaque', what: "$'…' quoting" });
          return e + 1;
        }
      }
      throw new Lost("has an unterminated $'", p);
    }
    if (next === '"' && !inDouble) {
      const scratch: Seg[] = [];
      const e = this.#double(p + 2, scratch, p);
      segs.push({ k: 'opaque', what: '$"…" quoting' });
      return e;
    }
    if (next !== undefined && '0123456789@*#?-$!'.includes(next)) {
      segs.push({ k: 'opaque', what: `$${next}` });
      return p + 2;
    }
    segs.push({ k: 'opaque', what: 'a "$" that expands to nothing known' });
    return p + 1;
  }

  /** `${…}` from after the brace. */
  #braced(p: number, segs: Seg[]): number {
    const s = this.#s;
    let e = p;
    if (e < s.length && NAME_START.test(s[e]!)) {
      while (e < s.length && NAME_CHAR.test(s[e]!)) e++;
      const name = s.slice(p, e);
      if (s[e] === '}' && name !== '_') {
        segs.push({ k: 'param', name });
        return e + 1;
      }
      const op =
        (['-', '+'] as const).find((o) => s[e] === o) ??
        (s[e] === ':' ? ([':-', ':+'] as const).find((o) => s.startsWith(o, e)) : undefined);
      if (op !== undefined && name !== '_') {
        const word = this.#opWord(e + op.length);
        if (word !== undefined) {
          segs.push({ k: 'param', name, op, word: word.parts });
          return word.end + 1;
        }
      }
    }
    segs.push({ k: 'opaque', what: `a \${…} form other than \${NAME}, \${NAME:-word} and \${NAME:+word}` });
    return this.#skipBraced(p);
  }

  /** The word of `${NAME:-word}` up to its `}`, when it is made of plain characters and `$NAME`s. */
  #opWord(p: number): { parts: ValuePart[]; end: number } | undefined {
    const s = this.#s;
    const parts: ValuePart[] = [];
    let lit = '';
    const flush = () => {
      if (lit !== '') parts.push({ kind: 'text', text: lit });
      lit = '';
    };
    while (p < s.length) {
      const c = s[p]!;
      if (c === '}') {
        flush();
        return { parts, end: p };
      }
      if (c === '$') {
        const braced = s[p + 1] === '{';
        let e = p + (braced ? 2 : 1);
        const from = e;
        if (e >= s.length || !NAME_START.test(s[e]!)) return undefined;
        while (e < s.length && NAME_CHAR.test(s[e]!)) e++;
        const name = s.slice(from, e);
        if (name === '_' || (braced && s[e] !== '}')) return undefined;
        flush();
        parts.push({ kind: 'param', name });
        p = braced ? e + 1 : e;
      } else if (OP_WORD_CHAR.test(c)) {
        lit += c;
        p++;
      } else return undefined;
    }
    return undefined;
  }

  /** Past the `}` of a `${…}` this scanner does not evaluate (from after its brace). */
  #skipBraced(p: number): number {
    const s = this.#s;
    let depth = 1;
    for (; p < s.length; p++) {
      const c = s[p]!;
      if (`'"\\\`\n`.includes(c) || (c === '$' && s[p + 1] === '('))
        throw new Lost(`has a \${…} it cannot follow`, p);
      if (c === '$' && s[p + 1] === '{') {
        depth++;
        p++;
      } else if (c === '}' && --depth === 0) return p + 1;
    }
    throw new Lost('has an unterminated ${', p);
  }

  /** Past the `` ` `` that ends a backquoted substitution (from after its opening one). */
  #backquote(p: number): number {
    const s = this.#s;
    for (; p < s.length; p++) {
      if (s[p] === '\\') p++;
      else if (s[p] === '`') return p + 1;
    }
    throw new Lost('has an unterminated backquote', p);
  }

  /**
   * Past the `)` that closes a `$(` (from after it): quotes, nested substitutions, `${…}`, parentheses
   * and comments skipped. A `case` or a here-document inside, where a `)` or a line need not mean
   * what they seem, is not followed.
   */
  #commandSub(p: number): number {
    const s = this.#s;
    const open = p;
    let depth = 1;
    while (p < s.length) {
      const c = s[p]!;
      const atWordStart = p === open || ' \t\n;&|()'.includes(s[p - 1]!);
      if (c === '\\') p += 2;
      else if (c === "'") {
        const close = s.indexOf("'", p + 1);
        if (close < 0) throw new Lost('has an unterminated single quote', p);
        p = close + 1;
      } else if (c === '"') p = this.#double(p + 1, [], p);
      else if (c === '`') p = this.#backquote(p + 1);
      else if (c === '$' && s[p + 1] === '{') p = this.#skipBraced(p + 2);
      else if (c === '$' && s[p + 1] === '(') {
        depth++;
        p += 2;
      } else if (c === '(') {
        depth++;
        p++;
      } else if (c === ')') {
        p++;
        if (--depth === 0) return p;
      } else if (c === '#' && atWordStart) {
        const nl = s.indexOf('\n', p);
        if (nl < 0) break;
        p = nl;
      } else if (c === '<' && s[p + 1] === '<')
        throw new Lost('has a here-document inside a substitution', p);
      else if (atWordStart && /^case[\s;&|()<>]/.test(s.slice(p, p + 5)))
        throw new Lost('has a case inside a substitution', p);
      else p++;
    }
    throw new Lost('has an unterminated $(', open);
  }

  /** The plain first word at `p` for messages (`if`, `cat`), else a placeholder. */
  head(p: number): string {
    const m = /^[^\s;&|()<>'"\\$`]*/.exec(this.#s.slice(p, p + 40))![0];
    return showable(m) && !m.includes('=') ? m : '…';
  }

  /** The character at `p`. */
  at(p: number): string | undefined {
    return this.#s[p];
  }

  get length(): number {
    return this.#s.length;
  }
}

/** Appends text to a word's pieces (merging with a last piece quoted the same way). */
function text(segs: Seg[], s: string, q: boolean): void {
  const last = segs.at(-1);
  if (last?.k === 'text' && last.q === q) last.s += s;
  else segs.push({ k: 'text', s, q });
}
