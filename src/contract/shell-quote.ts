// One word for a POSIX shell (sh, bash): left bare when it holds only characters no shell treats
// specially, else single-quoted, so spaces, `$`, backquotes and quotes stay literal. Dependency-free.

/** `word` as one literal shell word. */
export const shellQuote = (word: string): string =>
  /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
