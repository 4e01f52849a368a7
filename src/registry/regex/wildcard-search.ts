// Whether a compiled pattern (program.ts) could match SOME string of a given shape: literal text and
// runs of one or more unknown characters, e.g. `mcp__` + ? + `__create_issue` for an MCP tool whose
// server an agent does not say (Cursor). A tool name hookwarden cannot place must run every guard
// whose matcher could match it, and no more: this answers "could" exactly, not by sampling.
//
// It walks the product of the pattern's NFA (searched anywhere, as RegExp.prototype.test does) and
// the shape's automaton, depth first, each state once: linear in (program size × shape length). An
// unknown character is one of finitely many representatives: characters the program cannot tell
// apart (the same answer from every character set of the program, and the same word-ness for `\b`)
// behave alike, so trying one of each class decides the question for all of them.
import {
  ASSERT_BOL,
  ASSERT_EOL,
  ASSERT_WORD,
  type CharSet,
  isWordChar,
  OP_ASSERT,
  OP_CHAR,
  OP_JMP,
  OP_MATCH,
  OP_SPLIT,
} from './program.js';

/** One or more characters, any of them. */
export const ANY_RUN = Symbol('any run');
/** A shape: literal text and runs of unknown characters, in order. */
export type Shape = readonly (string | typeof ANY_RUN)[];

export interface Program {
  readonly op: Uint8Array;
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly sets: readonly (CharSet | undefined)[];
}

/** A character per class of characters the program cannot tell apart (computed once per program). */
const REPRESENTATIVES = new WeakMap<Program['sets'], readonly number[]>();

function representatives(p: Program): readonly number[] {
  const cached = REPRESENTATIVES.get(p.sets);
  if (cached !== undefined) return cached;
  const sets = p.sets.filter((s): s is CharSet => s !== undefined);
  const seen = new Set<string>();
  const reps: number[] = [];
  for (let c = 0; c <= 0xffff; c++) {
    let key = isWordChar(c) ? 'w' : 'n';
    for (const s of sets) key += s.has(c) ? '1' : '0';
    if (seen.has(key)) continue;
    seen.add(key);
    reps.push(c);
  }
  REPRESENTATIVES.set(p.sets, reps);
  return reps;
}

/** The shape as slots: a character, or a run of unknown ones (-1). */
const slotsOf = (shape: Shape): number[] =>
  shape.flatMap((s) => (s === ANY_RUN ? [-1] : Array.from({ length: s.length }, (_, i) => s.charCodeAt(i))));

const NONE = 0;
const WORD = 1;
const NONWORD = 2;
const END = 3;
const classOf = (c: number) => (isWordChar(c) ? WORD : NONWORD);

/** The shape states reachable from q without a character: a finished run may move on. */
function closure(slots: readonly number[], q: number): number[] {
  const i = q >> 1;
  return (q & 1) === 1 && slots[i] === -1 ? [q, 2 * (i + 1)] : [q];
}

/** Whether the program matches some string of the shape (searched anywhere in it, as `test` does). */
export function couldMatch(p: Program, shape: Shape): boolean {
  const slots = slotsOf(shape);
  const n = slots.length;
  const reps = representatives(p);
  const pcs = p.op.length;
  const idle = pcs; // no thread started yet: one may start at any position
  const states = 2 * (n + 1);
  const close = (q: number) => closure(slots, q);
  /** The characters that may come next at shape state q, with the state after each. */
  const next = (q: number): [number, number][] => {
    const out: [number, number][] = [];
    for (const s of close(q)) {
      const i = s >> 1;
      if (i >= n) continue;
      if (slots[i] === -1) for (const r of reps) out.push([r, 2 * i + 1]);
      else if ((s & 1) === 0) out.push([slots[i]!, 2 * (i + 1)]);
    }
    return out;
  };
  const atEnd = (q: number) => close(q).includes(2 * n);
  const possible = (q: number, req: number) =>
    req === END ? atEnd(q) : next(q).some(([c]) => classOf(c) === req);
  const seen = new Uint8Array((pcs + 1) * states * 3 * 4);
  const stack: number[] = [];
  const push = (pc: number, q: number, prev: number, req: number) => {
    const k = ((pc * states + q) * 3 + prev) * 4 + req;
    if (seen[k] === 1) return;
    seen[k] = 1;
    stack.push(pc, q, prev, req);
  };
  push(idle, 0, NONE, NONE);
  while (stack.length > 0) {
    const req = stack.pop()!;
    const prev = stack.pop()!;
    const q = stack.pop()!;
    const pc = stack.pop()!;
    if (pc === idle) {
      push(0, q, prev, NONE);
      for (const [c, q2] of next(q)) push(idle, q2, classOf(c), NONE);
      continue;
    }
    switch (p.op[pc]) {
      case OP_MATCH:
        return true;
      case OP_JMP:
        push(p.a[pc]!, q, prev, req);
        break;
      case OP_SPLIT:
        push(p.a[pc]!, q, prev, req);
        push(p.b[pc]!, q, prev, req);
        break;
      case OP_CHAR:
        for (const [c, q2] of next(q)) {
          if (req === END || (req !== NONE && classOf(c) !== req)) continue;
          if (p.sets[pc]!.has(c)) push(pc + 1, q2, classOf(c), NONE);
        }
        break;
      case OP_ASSERT: {
        const kind = p.a[pc]!;
        if (kind === ASSERT_BOL) {
          if (prev === NONE) push(pc + 1, q, prev, req);
        } else if (kind === ASSERT_EOL) {
          if ((req === NONE || req === END) && atEnd(q)) push(pc + 1, q, prev, END);
        } else {
          const before = prev === WORD;
          for (const after of [WORD, NONWORD, END]) {
            if (req !== NONE && req !== after) continue;
            if ((before !== (after === WORD)) !== (kind === ASSERT_WORD)) continue;
            if (possible(q, after)) push(pc + 1, q, prev, after);
          }
        }
        break;
      }
    }
  }
  return false;
}
