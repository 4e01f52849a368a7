// A Thompson-NFA / Pike-VM regex matcher: time O(input length × program size), never backtracking,
// so no pattern from config can hang a dispatch (catastrophic backtracking is impossible by
// construction). Only yes/no search is needed by matchers and `if` filters, so there are no captures.
import { parseRegex, RegexSyntaxError } from './parse.js';
import {
  ASSERT_BOL,
  ASSERT_EOL,
  ASSERT_WORD,
  type CharSet,
  Emitter,
  isWordChar,
  OP_ASSERT,
  OP_CHAR,
  OP_JMP,
  OP_MATCH,
  OP_SPLIT,
  requiredLiteral,
} from './program.js';
import type { StepBudget } from './step-budget.js';
import { couldMatch, type Shape } from './wildcard-search.js';

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

  /**
   * Whether some string of `shape` (literal text and runs of unknown characters) matches: a name
   * whose parts are unknown (an MCP tool on an unknown server) could be this pattern's.
   */
  couldMatch(shape: Shape): boolean {
    return couldMatch({ op: this.#op, a: this.#a, b: this.#b, sets: this.#sets }, shape);
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
  /**
   * Whether a search of `input` stays below the budget's allowance, so that it is not counted step
   * by step: it then ends with a definite answer and charges the same steps whatever the budget.
   */
  uncounted(input: string, budget: StepBudget | undefined): boolean {
    return budget === undefined || input.length * this.#op.length <= budget.allowance();
  }

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
