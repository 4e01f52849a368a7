// The pieces bash-words.ts reads a script into (words, their segments, an assignment's value parts),
// the error it throws where it cannot follow bash, and the word lists and patterns its readers share.
// Dependency-free.

import { secretValueKind } from './secret-names.js';

/** `${NAME:-word}`, `${NAME-word}`, `${NAME:+word}`, `${NAME+word}`. */
type ParamOp = ':-' | '-' | ':+' | '+';

/** One piece of an assignment's value, after bash's quote removal. */
export type ValuePart =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'param';
      readonly name: string;
      readonly op?: ParamOp;
      readonly word?: readonly ValuePart[];
    }
  /** `~` where bash expands it in an assignment (the value's start, after an unquoted `:`). */
  | { readonly kind: 'home'; readonly afterColon: boolean };

/** Thrown where bash's structure cannot be followed with confidence. */
export class Lost {
  constructor(
    readonly why: string,
    readonly at: number,
  ) {}
}

/** Words bash reads as grammar at the start of a command (its reserved words, `!`, `[[`, `{`). */
export const BASH_RESERVED_WORDS: ReadonlySet<string> = new Set(
  'if then elif else fi for while until do done case esac in select function coproc time { } ! [[ ]]'.split(
    ' ',
  ),
);

/** `NAME=` or `NAME+=` at the start of a word. */
export const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/;
const PLAIN_HEAD = /^[A-Za-z0-9_./:[-]{1,32}$/;
/** A word fit to name in a message: plain, short, and not shaped like a credential. */
export const showable = (word: string) => PLAIN_HEAD.test(word) && secretValueKind(word) === undefined;

/** A raw piece of a word: text (quoted or not), an expansion, or something not evaluated here. */
export type Seg =
  | { k: 'text'; s: string; q: boolean }
  | { k: 'param'; name: string; op?: ParamOp; word?: ValuePart[] }
  | { k: 'subst' }
  | { k: 'opaque'; what: string };

export interface Word {
  readonly segs: Seg[];
  readonly start: number;
  readonly end: number;
}
