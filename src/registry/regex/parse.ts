// Parser for the regex subset hookwarden accepts from config (matchers and `if` filters). Patterns
// are untrusted, so they are never handed to V8's backtracking engine: they compile to an NFA that
// runs in time linear in the input (see linear-regex.ts). Supported: literals, `.`, classes, \d\w\s\b and
// their negations, groups (capturing, non-capturing, named), alternation, * + ? {n} {n,} {n,m}
// (lazy forms accepted), ^ and $. Refused with a clear message: backreferences and lookaround.

export type Range = readonly [number, number];

export type Node =
  | { readonly t: 'set'; readonly ranges: readonly Range[]; readonly negate: boolean }
  | { readonly t: 'cat'; readonly items: readonly Node[] }
  | { readonly t: 'alt'; readonly items: readonly Node[] }
  | { readonly t: 'rep'; readonly node: Node; readonly min: number; readonly max: number }
  | { readonly t: 'assert'; readonly kind: 'bol' | 'eol' | 'word' | 'nonword' };

export class RegexSyntaxError extends Error {
  override readonly name = 'RegexSyntaxError';
}

/** Largest {n,m} bound accepted (keeps the compiled program small). */
const MAX_REPEAT = 1000;

const DIGIT: Range[] = [[48, 57]];
const WORD: Range[] = [
  [48, 57],
  [65, 90],
  [95, 95],
  [97, 122],
];
const SPACE: Range[] = [
  [9, 13],
  [32, 32],
  [160, 160],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
const LINE_TERMINATORS: Range[] = [
  [10, 10],
  [13, 13],
  [0x2028, 0x2029],
];

/** Complement of sorted, merged ranges over UTF-16 code units. */
function invert(ranges: readonly Range[]): Range[] {
  const sorted = normalize(ranges);
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of sorted) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= 0xffff) out.push([next, 0xffff]);
  return out;
}

export function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

const set = (ranges: readonly Range[], negate = false): Node => ({ t: 'set', ranges, negate });
const char = (c: number): Node => set([[c, c]]);

class Parser {
  #i = 0;
  constructor(readonly src: string) {}

  parse(): Node {
    const node = this.#alternation();
    if (this.#i < this.src.length) this.#fail(`unmatched ")" at offset ${this.#i}`);
    return node;
  }

  #fail(message: string): never {
    throw new RegexSyntaxError(message);
  }

  #peek(): string | undefined {
    return this.src[this.#i];
  }

  #alternation(): Node {
    const items = [this.#sequence()];
    while (this.#peek() === '|') {
      this.#i++;
      items.push(this.#sequence());
    }
    return items.length === 1 ? items[0]! : { t: 'alt', items };
  }

  #sequence(): Node {
    const items: Node[] = [];
    for (let c = this.#peek(); c !== undefined && c !== '|' && c !== ')'; c = this.#peek()) {
      const atom = this.#atom();
      items.push(this.#quantified(atom));
    }
    return items.length === 1 ? items[0]! : { t: 'cat', items };
  }

  #quantified(atom: Node): Node {
    let node = atom;
    for (;;) {
      const c = this.#peek();
      let min: number;
      let max: number;
      if (c === '*') [min, max] = [0, Infinity];
      else if (c === '+') [min, max] = [1, Infinity];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.#i));
        if (m === null) return node; // a literal "{", as JavaScript reads it
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
        if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) {
          this.#fail(`repetition bound above ${MAX_REPEAT} in "${m[0]}"`);
        }
        if (max < min) this.#fail(`numbers out of order in "${m[0]}"`);
        this.#i += m[0].length - 1;
      } else return node;
      this.#i++;
      if (this.#peek() === '?') this.#i++; // lazy: same answer for a yes/no match
      if (node.t === 'assert') this.#fail('nothing to repeat before a quantifier');
      node = { t: 'rep', node, min, max };
    }
  }

  #atom(): Node {
    const c = this.src[this.#i++]!;
    switch (c) {
      case '.':
        return set(LINE_TERMINATORS, true);
      case '^':
        return { t: 'assert', kind: 'bol' };
      case '$':
        return { t: 'assert', kind: 'eol' };
      case '[':
        return this.#class();
      case '(':
        return this.#group();
      case '\\':
        return this.#escape(false);
      case '*':
      case '+':
      case '?':
        return this.#fail(`nothing to repeat before "${c}" at offset ${this.#i - 1}`);
      default:
        return char(c.charCodeAt(0));
    }
  }

  #group(): Node {
    if (this.src.startsWith('?', this.#i)) {
      const rest = this.src.slice(this.#i, this.#i + 3);
      if (rest.startsWith('?:')) this.#i += 2;
      else if (rest.startsWith('?=') || rest.startsWith('?!') || rest === '?<=' || rest === '?<!') {
        this.#fail(
          'lookahead/lookbehind is not supported (hookwarden matches config regexes in linear time)',
        );
      } else if (rest.startsWith('?<')) {
        const end = this.src.indexOf('>', this.#i);
        if (end < 0) this.#fail('unterminated group name');
        this.#i = end + 1;
      } else this.#fail(`invalid group "(${rest}"`);
    }
    const inner = this.#alternation();
    if (this.src[this.#i] !== ')') this.#fail('missing ")"');
    this.#i++;
    return inner;
  }

  #escape(inClass: boolean): Node {
    const c = this.src[this.#i++];
    if (c === undefined) return this.#fail('"\\" at end of pattern');
    switch (c) {
      case 'd':
        return set(DIGIT);
      case 'D':
        return set(DIGIT, true);
      case 'w':
        return set(WORD);
      case 'W':
        return set(WORD, true);
      case 's':
        return set(SPACE);
      case 'S':
        return set(SPACE, true);
      case 'b':
        return inClass ? char(8) : { t: 'assert', kind: 'word' };
      case 'B':
        if (inClass) return this.#fail('"\\B" inside a class');
        return { t: 'assert', kind: 'nonword' };
      case 'n':
        return char(10);
      case 'r':
        return char(13);
      case 't':
        return char(9);
      case 'v':
        return char(11);
      case 'f':
        return char(12);
      case '0':
        // Annex B reads `\01` as an octal escape: not supported (so never read differently).
        if (/[0-9]/.test(this.src[this.#i] ?? '')) return this.#fail('octal escapes are not supported');
        return char(0);
      case 'c': {
        // `\cA`: a control character. JavaScript reads any other `\c…` as a literal backslash (or,
        // in a class, a few more control forms): not supported, so never read differently.
        const letter = this.src[this.#i];
        if (letter === undefined || !/[A-Za-z]/.test(letter))
          return this.#fail('"\\c" without a letter after it is not supported');
        this.#i++;
        return char(letter.charCodeAt(0) % 32);
      }
      case 'x':
      case 'u': {
        const len = c === 'x' ? 2 : 4;
        const hex = this.src.slice(this.#i, this.#i + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) return char(c.charCodeAt(0));
        this.#i += len;
        return char(Number.parseInt(hex, 16));
      }
      default:
        if (c >= '1' && c <= '9') return this.#fail('backreferences are not supported');
        if (c === 'k' && this.src[this.#i] === '<') return this.#fail('backreferences are not supported');
        return char(c.charCodeAt(0));
    }
  }

  #class(): Node {
    let negate = false;
    if (this.src[this.#i] === '^') {
      negate = true;
      this.#i++;
    }
    const ranges: Range[] = [];
    for (;;) {
      const c = this.src[this.#i];
      if (c === undefined) return this.#fail('missing "]"');
      // As in JavaScript, `[]` matches nothing and `[^]` any character: a "]" first closes the class.
      if (c === ']') break;
      const lo = this.#classAtom();
      if (this.src[this.#i] === '-' && this.src[this.#i + 1] !== ']' && this.src[this.#i + 1] !== undefined) {
        this.#i++;
        const hi = this.#classAtom();
        if (lo.t !== 'set' || hi.t !== 'set' || !isSingle(lo) || !isSingle(hi)) {
          return this.#fail('invalid range in character class');
        }
        const a = lo.ranges[0]![0];
        const b = hi.ranges[0]![0];
        if (b < a) return this.#fail('range out of order in character class');
        ranges.push([a, b]);
      } else if (lo.t === 'set') ranges.push(...(lo.negate ? invert(lo.ranges) : lo.ranges));
    }
    this.#i++;
    return set(normalize(ranges), negate);
  }

  #classAtom(): Node {
    const c = this.src[this.#i++]!;
    if (c === '\\') return this.#escape(true);
    return char(c.charCodeAt(0));
  }
}

function isSingle(n: Node): boolean {
  return n.t === 'set' && !n.negate && n.ranges.length === 1 && n.ranges[0]![0] === n.ranges[0]![1];
}

/** Parses a pattern into the AST; throws RegexSyntaxError with a message fit for a config diagnostic. */
export function parseRegex(source: string): Node {
  return new Parser(source).parse();
}
