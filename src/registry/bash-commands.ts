// The simple commands of a Bash tool call, as Claude Code's permission rules see them (2.1.333
// matches a `Bash(...)` rule against each one): split at `&&`, `||`, `;`, `|`, `|&`, `&` and newlines,
// quotes removed, leading `NAME=value` assignments, redirections and `!` dropped, words joined by
// one space. `FOO=1 git push`, `cd repo && git push` and `git status\ngit push` all hold `git push`.
//
// Claude Code parses the command with a full bash grammar; this splitter knows only that subset and
// says so: anything it cannot split with confidence (a substitution `$(…)` or backquotes, an
// expansion `$NAME`, a subshell or group, a compound command such as `if`/`for`, a here-document,
// an unterminated quote) returns undefined, and the rule then counts as matched (trust invariant 3).
// Linear in the command's length.

import { BASH_RESERVED_WORDS } from '../contract/bash-word-parts.js';

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;
/** A redirection operator, possibly with its target in the same word (`2>/dev/null`, `>&2`). */
const REDIRECT = /^(?:\d+|&)?(?:>>?|<|>&|<&|&>>?|>\|)(.*)$/;

interface Word {
  readonly text: string;
  /** The word was, or contained, quoted text (so `>` in it is no operator). */
  readonly quoted: boolean;
  /** The word's text before its first quote (`FOO=` of `FOO="a b"`: an assignment). */
  readonly plain: string;
}

/** The words of each simple command, or undefined when the command is not a plain list of them. */
/** The text of a double-quoted string from `start` (after its `"`), and where it closes; undefined
 * when it does not close or holds an expansion or substitution (its value is not known here). */
function doubleQuoted(command: string, start: number): { text: string; close: number } | undefined {
  let text = '';
  let j = start;
  for (; j < command.length && command[j] !== '"'; j++) {
    const d = command[j]!;
    if (d === '$' || d === '`') return undefined;
    if (d === '\\' && j + 1 < command.length && '"\\$`\n'.includes(command[j + 1]!)) {
      j++;
      if (command[j] !== '\n') text += command[j];
    } else text += d;
  }
  return j >= command.length ? undefined : { text, close: j };
}

function lex(command: string): Word[][] | undefined {
  const commands: Word[][] = [[]];
  let text = '';
  let quoted = false;
  let inWord = false;
  let plain: string | undefined;
  const quote = () => {
    plain ??= text;
    quoted = inWord = true;
  };
  const end = () => {
    if (inWord) commands.at(-1)!.push({ text, quoted, plain: plain ?? text });
    text = '';
    quoted = false;
    inWord = false;
    plain = undefined;
  };
  const separate = () => {
    end();
    if (commands.at(-1)!.length > 0) commands.push([]);
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === '\\') {
      if (command[i + 1] === '\n') {
        i++;
        continue;
      }
      if (i + 1 >= command.length) return undefined;
      quote();
      text += command[++i];
    } else if (c === "'") {
      const close = command.indexOf("'", i + 1);
      if (close < 0) return undefined;
      quote();
      text += command.slice(i + 1, close);
      i = close;
    } else if (c === '"') {
      const read = doubleQuoted(command, i + 1);
      if (read === undefined) return undefined;
      quote();
      text += read.text;
      i = read.close;
    } else if (c === '$' || c === '`' || c === '(' || c === ')') {
      return undefined;
    } else if (c === '<' && command[i + 1] === '<') {
      return undefined; // a here-document or here-string
    } else if ((c === '<' || c === '>') && command[i + 1] === '(') {
      return undefined;
    } else if (c === '\n' || c === ';') {
      separate();
    } else if (c === '&' || c === '|') {
      // `>&`, `&>`: part of a redirection word; otherwise a separator (`&&`, `||`, `|&`, `&`, `|`).
      if (c === '&' && (command[i - 1] === '>' || command[i - 1] === '<' || command[i + 1] === '>')) {
        text += c;
        inWord = true;
        continue;
      }
      separate();
      if (command[i + 1] === c || (c === '|' && command[i + 1] === '&')) i++;
    } else if (c === '#' && !inWord) {
      const nl = command.indexOf('\n', i);
      if (nl < 0) break;
      i = nl - 1;
    } else if (c === ' ' || c === '\t') {
      end();
    } else {
      text += c;
      inWord = true;
    }
  }
  end();
  return commands.filter((words) => words.length > 0);
}

/**
 * Each simple command of `command`, its words joined by one space, in order; undefined when the
 * command cannot be split with confidence (then every rule counts as matched).
 */
export function simpleCommands(command: string): string[] | undefined {
  const lexed = lex(command);
  if (lexed === undefined) return undefined;
  const out: string[] = [];
  for (const words of lexed) {
    const argv: string[] = [];
    let skipTarget = false;
    for (const w of words) {
      if (skipTarget) {
        skipTarget = false;
        continue;
      }
      if (!w.quoted) {
        const redirect = REDIRECT.exec(w.text);
        if (redirect !== null) {
          // `> file`: the next word is the target; `>file`, `2>&1`: this word holds it.
          skipTarget = redirect[1] === '';
          continue;
        }
        if (argv.length === 0 && w.text === '!') continue;
        if (argv.length === 0 && BASH_RESERVED_WORDS.has(w.text)) return undefined;
      }
      if (argv.length === 0 && ASSIGNMENT.test(w.plain)) continue;
      argv.push(w.text);
    }
    if (skipTarget) return undefined;
    if (argv.length > 0) out.push(argv.join(' '));
  }
  return out;
}
