// The words of a shell command line, quotes and backslashes removed: enough to recognise what a
// command runs (the scripts a bench digest covers, the Claude Code adapter's own hooks that
// config/adapter-hook.ts recognises), not a shell. Dependency-free.

/** Characters that end a word outside quotes: blanks, and with `operators` also `; & | ( ) < >` and backquotes. */
const BLANK = /\s/;
const BLANK_OR_OPERATOR = /[\s;&|()<>`]/;

/** `"$DIR"/x.sh` is one word; with `operators`, `a;b` and `a|b` are two. */
export function shellWords(line: string, options: { operators?: boolean } = {}): string[] {
  const ends = options.operators === true ? BLANK_OR_OPERATOR : BLANK;
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      word += end < 0 ? line.slice(i + 1) : line.slice(i + 1, end);
      inWord = true;
      i = end < 0 ? line.length : end;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (ends.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
