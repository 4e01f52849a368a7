// The compiler half of the linear-time matcher (linear-regex.ts runs what it emits): the
// instruction set, character sets with case folding, the emitter from parse.ts's tree to a program,
// and the literal every match must contain.
import { type Node, normalize, type Range, RegexSyntaxError } from './parse.js';

export const OP_CHAR = 0;
export const OP_SPLIT = 1;
export const OP_JMP = 2;
export const OP_ASSERT = 3;
export const OP_MATCH = 4;

export const ASSERT_BOL = 0;
export const ASSERT_EOL = 1;
export const ASSERT_WORD = 2;
const ASSERT_NONWORD = 3;

/** Largest compiled program accepted (instructions): a load-time bound on the cost per character. */
const MAX_PROGRAM = 4_000;

export class CharSet {
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

export class Emitter {
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
export function requiredLiteral(node: Node): string | undefined {
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

export const isWordChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95 || (c >= 97 && c <= 122);
