// The statements of a CLAUDE_ENV_FILE as bash reads them. Claude Code 2.1.333 runs the files its
// SessionStart (Setup, CwdChanged, FileChanged) hooks wrote as a bash script before every Bash
// command, so a line keeps its meaning only if it reaches that file as the bash it was. This scanner
// knows the part of bash an env file needs — assignments (`NAME=value`, `export …`, `declare -x …`,
// as `export -p` prints them) whose values are words of literal text, quotes and `$NAME`/`${NAME}`
// expansions — and says where anything else is: a command (`source`, `eval`, `nvm use`), a
// substitution, an expansion it does not evaluate, a statement that runs in a subshell.
//
// Where it cannot follow bash's structure with confidence (a compound command, a subshell, a
// here-document, an unterminated quote), every statement from there on is left out: a line bash
// reads as part of an `if` or a here-document must not be applied on its own. Linear in the text's
// length; dependency-free.
import { type RawStatement, readStatement } from './bash-statement.js';
import { ASSIGNMENT, Lost, type Seg, showable, type ValuePart, type Word } from './bash-word-parts.js';
import { Scanner } from './bash-words.js';

export type { ValuePart };

export interface Assignment {
  readonly name: string;
  /** `NAME+=value`. */
  readonly append: boolean;
  /** Undefined: `export NAME` (exports the variable as it is). */
  readonly value?: readonly ValuePart[];
}

type EnvStatement =
  | {
      readonly kind: 'assign';
      /** 1-based line where the statement starts. */
      readonly line: number;
      /** The statement as written (its words, without a trailing comment or separator). */
      readonly text: string;
      /** `export`/`declare -x` (bash evaluates every value before it assigns any). */
      readonly builtin: boolean;
      readonly assignments: readonly Assignment[];
    }
  | {
      readonly kind: 'refused';
      readonly line: number;
      /** The statement's first word when it is a plain one (`source`, `nvm`), else a placeholder; never a value. */
      readonly head: string;
      readonly why: string;
    };

export interface EnvScript {
  readonly statements: readonly EnvStatement[];
  /** Where the scanner stopped following bash's structure: every line from `line` on is left out. */
  readonly lost?: {
    readonly line: number;
    readonly endLine: number;
    readonly head: string;
    readonly why: string;
  };
}

/** The word's text when it is one unquoted piece of plain text. */
function plainWord(w: Word): string | undefined {
  return w.segs.length === 1 && w.segs[0]!.k === 'text' && !w.segs[0]!.q ? w.segs[0]!.s : undefined;
}

/** `NAME=` or `NAME+=` at the start of an unquoted word: the assignment, or undefined. */
function assignmentOf(w: Word): Assignment | string | undefined {
  const first = w.segs[0];
  if (first?.k !== 'text' || first.q) return undefined;
  const m = ASSIGNMENT.exec(first.s);
  if (m === null) return undefined;
  const rest: Seg[] = [{ k: 'text', s: first.s.slice(m[0].length), q: false }, ...w.segs.slice(1)];
  const value = assignedValue(rest);
  if (typeof value === 'string') return value;
  return { name: m[1]!, append: m[2] === '+', value };
}

/** The value parts of an assignment, or why it is not evaluated here. */
function assignedValue(segs: readonly Seg[]): ValuePart[] | string {
  const parts: ValuePart[] = [];
  const push = (s: string) => {
    const last = parts.at(-1);
    if (last?.kind === 'text') parts[parts.length - 1] = { kind: 'text', text: last.text + s };
    else if (s !== '') parts.push({ kind: 'text', text: s });
  };
  let tildeHere = true; // the value's start, and after an unquoted ':'
  for (const [i, seg] of segs.entries()) {
    if (seg.k === 'subst') return 'runs a command ($(…) or backquotes)';
    if (seg.k === 'opaque') return `uses ${seg.what}, which hookwarden does not evaluate`;
    if (seg.k === 'param') {
      parts.push(
        seg.op === undefined
          ? { kind: 'param', name: seg.name }
          : { kind: 'param', name: seg.name, op: seg.op, word: seg.word! },
      );
      tildeHere = false;
      continue;
    }
    if (seg.q) {
      push(seg.s);
      tildeHere = false;
      continue;
    }
    if (/[*?[\]{}]/.test(seg.s)) return 'has an unquoted *, ?, [, ] or brace, which bash may expand';
    let j = 0;
    while (j < seg.s.length) {
      const c = seg.s[j]!;
      if (c === '~' && tildeHere) {
        const stop = seg.s.slice(j + 1).search(/[/:]/);
        const prefixEnd = stop < 0 ? seg.s.length : j + 1 + stop;
        if (prefixEnd !== j + 1) return 'uses ~user or ~+, which hookwarden does not evaluate';
        // `~` then a quoted piece or an expansion: the prefix holds quoted characters.
        if (prefixEnd === seg.s.length && i < segs.length - 1) return 'has a ~ bash may or may not expand';
        parts.push({ kind: 'home', afterColon: j > 0 || i > 0 });
        j++;
        tildeHere = false;
        continue;
      }
      push(c);
      tildeHere = c === ':';
      j++;
    }
  }
  return parts;
}

const refused = (sc: Scanner, raw: RawStatement, why: string): EnvStatement => ({
  kind: 'refused',
  line: sc.line(raw.start),
  head: headOf(raw.words[0]),
  why,
});

/** The first word for messages: a plain command name as written, `NAME=…`; never a value (it may be a secret). */
function headOf(w: Word | undefined): string {
  const first = w?.segs[0];
  if (first?.k === 'text' && !first.q) {
    const m = ASSIGNMENT.exec(first.s);
    if (m !== null) return `${m[1]}${m[2]}=…`;
  }
  const plain = w === undefined ? undefined : plainWord(w);
  return plain !== undefined && showable(plain) ? plain : '…';
}

/** What one statement is. */
function classify(sc: Scanner, raw: RawStatement): EnvStatement {
  // bash drops NUL bytes from its input: the line would not mean what it says.
  if (sc.slice(raw.start, raw.end).includes('\u0000')) return refused(sc, raw, 'holds a NUL byte');
  if (raw.joined) return refused(sc, raw, 'runs commands (a list joined by &&, || or |)');
  if (raw.background)
    return refused(sc, raw, 'runs in the background (&), which sets nothing for the session');
  if (raw.redirect) return refused(sc, raw, 'has a redirection, which an assignment does not need');
  const [first, ...rest] = raw.words;
  const head = plainWord(first!);
  const builtinArgs =
    head === 'export'
      ? rest
      : head === 'declare' && rest.length > 0 && plainWord(rest[0]!) === '-x'
        ? rest.slice(1)
        : undefined;
  const words = builtinArgs ?? raw.words;
  if (builtinArgs === undefined && assignmentOf(first!) === undefined)
    return refused(sc, raw, 'runs a command, which a hook may not add to the session');
  if (words.length === 0) return refused(sc, raw, 'assigns nothing');
  const assignments: Assignment[] = [];
  for (const w of words) {
    const a = assignmentOf(w);
    if (typeof a === 'string') return refused(sc, raw, a);
    if (a !== undefined) {
      assignments.push(a);
      continue;
    }
    const name = plainWord(w);
    if (builtinArgs !== undefined && name !== undefined && ASSIGNMENT.test(`${name}=`)) {
      assignments.push({ name, append: false });
      continue;
    }
    return refused(
      sc,
      raw,
      builtinArgs === undefined
        ? 'runs a command with a temporary variable, which a hook may not add to the session'
        : `${head} takes only NAME=value words here (no options, no quoted names)`,
    );
  }
  return {
    kind: 'assign',
    line: sc.line(raw.start),
    text: sc.slice(raw.start, raw.end),
    builtin: builtinArgs !== undefined,
    assignments,
  };
}

/**
 * The statements of `text`, a bash script of assignments. `truncated`: the text is the head of a
 * longer file, so its last statement may be cut (it is refused).
 */
export function parseEnvScript(text: string, truncated = false): EnvScript {
  const sc = new Scanner(text);
  const statements: EnvStatement[] = [];
  let p = 0;
  for (;;) {
    p = sc.blanks(p);
    const c = sc.at(p);
    if (c === undefined) break;
    if (c === '\n') {
      p++;
      continue;
    }
    if (c === '#') {
      while (sc.at(p) !== undefined && sc.at(p) !== '\n') p++;
      continue;
    }
    let raw: RawStatement;
    try {
      raw = readStatement(sc, p);
    } catch (err) {
      if (!(err instanceof Lost)) throw err;
      const line = sc.line(p);
      return {
        statements,
        lost: { line, endLine: Math.max(line, sc.lines), head: sc.head(p), why: err.why },
      };
    }
    statements.push(classify(sc, raw));
    p = raw.next;
  }
  // The head of a longer file: its last statement may have been cut anywhere.
  const last = statements.at(-1);
  if (truncated && last !== undefined)
    statements[statements.length - 1] = {
      kind: 'refused',
      line: last.line,
      head: last.kind === 'refused' ? last.head : '…',
      why: 'may be cut: the file is larger than hookwarden reads',
    };
  return { statements };
}
