// A Thompson-NFA / Pike-VM regex matcher: time O(input length × program size), never backtracking,
// so no pattern from config can hang a dispatch (catastrophic backtracking is impossible by
// construction). Only yes/no search is needed by matchers and `if` filters, so there are no captures.
import { type Node, normalize, parseRegex, type Range, RegexSyntaxError } from './parse.js';

const OP_CHAR = 0;
const OP_SPLIT = 1;
const OP_JMP = 2;
const OP_ASSERT = 3;
const OP_MATCH = 4;

const ASSERT_BOL = 0;
const ASSERT_EOL = 1;
const ASSERT_WORD = 2;
const ASSERT_NONWORD = 3;

/** Largest compiled program accepted (instructions): a load-time bound on the cost per character. */
export const MAX_PROGRAM = 4_000;

/**
 * Steps a dispatch's matchers and filters may take (a step: one live NFA thread advanced by one
 * character, about 40 ns here). A search over its share gives up; the hook then runs.
 */
export class StepBudget {
  #remaining: number;
  constructor(
    total: number,
    /** Most steps one search may take. */
    readonly perSearch: number,
  ) {
    this.#remaining = total;
  }
  /** Steps the next search may take. */
  allowance(): number {
    return Math.max(0, Math.min(this.#remaining, this.perSearch));
  }
  charge(steps: number): void {
    this.#remaining -= steps;
  }
  get remaining(): number {
    return this.#remaining;
  }
}

class CharSet {
  readonly #ascii = new Uint8Array(128);
  readonly #ranges: readonly Range[];
  readonly #negate: boolean;
  constructor(ranges: readonly Range[], negate: boolean) {
    this.#ranges = ranges;
    this.#negate = negate;
    for (const [lo, hi] of ranges) for (let c = lo; c <= Math.min(hi, 127); c++) this.#ascii[c] = 1;
  }
  has(c: number): boolean {
    let inside: boolean;
    if (c < 128) inside = this.#ascii[c] === 1;
    else {
      inside = false;
      for (const [lo, hi] of this.#ranges) {
        if (c < lo) break;
        if (c <= hi) {
          inside = true;
          break;
        }
      }
    }
    return inside !== this.#negate;
  }
}

function foldCase(ranges: readonly Range[]): Range[] {
  const out: Range[] = [...ranges];
  for (const [lo, hi] of ranges) {
    for (let c = lo; c <= Math.min(hi, 0x24f); c++) {
      const s = String.fromCharCode(c);
      for (const v of [s.toLowerCase(), s.toUpperCase()]) {
        if (v.length === 1 && v !== s) out.push([v.charCodeAt(0), v.charCodeAt(0)]);
      }
    }
  }
  return normalize(out);
}

class Emitter {
  readonly op: number[] = [];
  readonly a: number[] = [];
  readonly b: number[] = [];
  readonly sets: (CharSet | undefined)[] = [];
  constructor(readonly ignoreCase: boolean) {}

  #push(op: number, a = 0, b = 0, s?: CharSet): number {
    if (this.op.length >= MAX_PROGRAM)
      throw new RegexSyntaxError(`pattern too large (over ${MAX_PROGRAM} states)`);
    this.op.push(op);
    this.a.push(a);
    this.b.push(b);
    this.sets.push(s);
    return this.op.length - 1;
  }

  emit(node: Node): void {
    switch (node.t) {
      case 'set':
        this.#push(
          OP_CHAR,
          0,
          0,
          new CharSet(this.ignoreCase ? foldCase(node.ranges) : node.ranges, node.negate),
        );
        return;
      case 'cat':
        for (const item of node.items) this.emit(item);
        return;
      case 'assert':
        this.#push(
          OP_ASSERT,
          { bol: ASSERT_BOL, eol: ASSERT_EOL, word: ASSERT_WORD, nonword: ASSERT_NONWORD }[node.kind],
        );
        return;
      case 'alt': {
        const jumps: number[] = [];
        node.items.forEach((item, i) => {
          if (i < node.items.length - 1) {
            const split = this.#push(OP_SPLIT);
            this.a[split] = this.op.length;
            this.emit(item);
            jumps.push(this.#push(OP_JMP));
            this.b[split] = this.op.length;
          } else this.emit(item);
        });
        for (const j of jumps) this.a[j] = this.op.length;
        return;
      }
      case 'rep': {
        for (let i = 0; i < node.min; i++) this.emit(node.node);
        if (node.max === Infinity) {
          const split = this.#push(OP_SPLIT);
          this.a[split] = this.op.length;
          this.emit(node.node);
          this.#push(OP_JMP, split);
          this.b[split] = this.op.length;
          return;
        }
        const splits: number[] = [];
        for (let i = node.min; i < node.max; i++) {
          const split = this.#push(OP_SPLIT);
          this.a[split] = this.op.length;
          splits.push(split);
          this.emit(node.node);
        }
        for (const s of splits) this.b[s] = this.op.length;
        return;
      }
    }
  }

  finish(): void {
    this.#push(OP_MATCH);
  }
}

/**
 * The longest run of plain characters in the pattern's top-level sequence (`^[\s\S]*\.env$` →
 * ".env", `(a|aa){700}b` → "b"): every match contains it. Undefined when there is none.
 */
function requiredLiteral(node: Node): string | undefined {
  const items = node.t === 'cat' ? node.items : [node];
  let best = '';
  let run = '';
  for (const item of items) {
    const single =
      item.t === 'set' &&
      !item.negate &&
      item.ranges.length === 1 &&
      item.ranges[0]![0] === item.ranges[0]![1];
    if (single) {
      run += String.fromCharCode(item.ranges[0]![0]);
      if (run.length > best.length) best = run;
    } else if (item.t !== 'assert') run = '';
  }
  return best === '' ? undefined : best;
}

const isWordChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95 || (c >= 97 && c <= 122);

/** A compiled pattern. `test` searches anywhere in the string, like `RegExp.prototype.test`. */
export class LinearRegex {
  readonly source: string;
  readonly #op: Uint8Array;
  readonly #a: Int32Array;
  readonly #b: Int32Array;
  readonly #sets: readonly (CharSet | undefined)[];
  readonly #mark: Int32Array;
  #clist: Int32Array;
  #nlist: Int32Array;
  readonly #stack: Int32Array;
  /** A literal every match contains: an input without it cannot match (checked first, fast). */
  readonly #required: string | undefined;
  readonly #ignoreCase: boolean;

  constructor(source: string, flags: { ignoreCase?: boolean } = {}) {
    this.source = source;
    const e = new Emitter(flags.ignoreCase === true);
    const ast = parseRegex(source);
    this.#ignoreCase = flags.ignoreCase === true;
    const required = requiredLiteral(ast);
    // Case-insensitive, only ASCII literals: lowercasing the input then keeps every character the
    // engine could match (its case folding of non-ASCII letters differs from toLowerCase's).
    this.#required =
      !this.#ignoreCase || required === undefined
        ? required
        : /^[\x00-\x7f]+$/.test(required)
          ? required.toLowerCase()
          : undefined;
    e.emit(ast);
    e.finish();
    this.#op = Uint8Array.from(e.op);
    this.#a = Int32Array.from(e.a);
    this.#b = Int32Array.from(e.b);
    this.#sets = e.sets;
    const n = e.op.length;
    this.#mark = new Int32Array(n);
    this.#clist = new Int32Array(n);
    this.#nlist = new Int32Array(n);
    this.#stack = new Int32Array(2 * n + 2);
  }

  /** Size of the compiled program (instructions). */
  get programSize(): number {
    return this.#op.length;
  }

  /**
   * Searches `input`. With a `budget`, gives up once the search has taken its share of the budget's
   * steps and returns `undefined` (not evaluated: callers count it as a match, "when in doubt, run
   * the guard"); the steps taken are charged to the budget either way.
   */
  test(input: string, budget?: StepBudget): boolean | undefined {
    const required = this.#required;
    if (required !== undefined && !(this.#ignoreCase ? input.toLowerCase() : input).includes(required))
      return false;
    const len = input.length;
    const mark = this.#mark;
    mark.fill(0);
    let clist = this.#clist;
    let nlist = this.#nlist;
    let clen = this.#add(clist, 0, 0, 0, input, 1);
    if (clen < 0) return true;
    // Quick out: a search that cannot exceed the allowance is not counted step by step.
    const allowance = budget === undefined ? Infinity : budget.allowance();
    const counted = len * this.#op.length > allowance;
    let steps = 0;
    for (let pos = 0; pos < len; pos++) {
      if (counted) {
        steps += clen + 1;
        if (steps > allowance) {
          budget!.charge(steps);
          return undefined;
        }
      }
      const c = input.charCodeAt(pos);
      const gen = pos + 2;
      let nlen = 0;
      for (let i = 0; i < clen; i++) {
        const pc = clist[i]!;
        if (this.#sets[pc]!.has(c)) {
          nlen = this.#add(nlist, nlen, pc + 1, pos + 1, input, gen);
          if (nlen < 0) return true;
        }
      }
      nlen = this.#add(nlist, nlen, 0, pos + 1, input, gen);
      if (nlen < 0) return true;
      const t = clist;
      clist = nlist;
      nlist = t;
      clen = nlen;
    }
    budget?.charge(counted ? steps : len);
    return false;
  }

  /** Adds the epsilon closure of `start` at `pos` to `list`; returns the new length, or -1 on a match. */
  #add(list: Int32Array, len: number, start: number, pos: number, input: string, gen: number): number {
    const op = this.#op;
    const mark = this.#mark;
    const stack = this.#stack;
    let sp = 0;
    stack[sp++] = start;
    while (sp > 0) {
      const pc = stack[--sp]!;
      if (mark[pc] === gen) continue;
      mark[pc] = gen;
      switch (op[pc]) {
        case OP_CHAR:
          list[len++] = pc;
          break;
        case OP_JMP:
          stack[sp++] = this.#a[pc]!;
          break;
        case OP_SPLIT:
          stack[sp++] = this.#b[pc]!;
          stack[sp++] = this.#a[pc]!;
          break;
        case OP_ASSERT:
          if (this.#holds(this.#a[pc]!, pos, input)) stack[sp++] = pc + 1;
          break;
        case OP_MATCH:
          return -1;
      }
    }
    return len;
  }

  #holds(kind: number, pos: number, input: string): boolean {
    if (kind === ASSERT_BOL) return pos === 0;
    if (kind === ASSERT_EOL) return pos === input.length;
    const before = pos > 0 && isWordChar(input.charCodeAt(pos - 1));
    const after = pos < input.length && isWordChar(input.charCodeAt(pos));
    return (before !== after) === (kind === ASSERT_WORD);
  }
}

export { RegexSyntaxError };
