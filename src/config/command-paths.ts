// Relative command paths in hookwarden-dialect config files resolve against the config file's
// folder, like a JS hook's `source`: the program (argv[0], `command` with `args`, the first word of a
// shell command after any NAME=value assignments) when it is a relative path with a slash
// (`./guard.sh`, `../bin/x`, `hooks/x.sh`), and argv/args words that start with `./` or `../`. The
// hook still runs with cwd = the sandbox root. Claude Code and FreeCode files keep their systems'
// rule: relative to the project root, the hook's working directory.
import { isAbsolute, resolve } from 'node:path';
import type { CommandHookSpec } from '../registry/hook-definition.js';

const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
const isRelativePath = (w: string) => !isAbsolute(w) && w.includes('/') && !w.startsWith('$');
const startsRelative = (w: string) => w.startsWith('./') || w.startsWith('../');
const PROGRAM_WORD = /^(\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*)("[^"]*"|'[^']*'|[^\s;&|()<>`$]+)/;

/** The program with relative paths resolved against `dir`. */
export function resolveCommandPaths(
  program: CommandHookSpec['program'],
  dir: string,
): CommandHookSpec['program'] {
  if (program.kind === 'argv') {
    const argv = program.argv.map((w, i) =>
      (i === 0 ? isRelativePath(w) : startsRelative(w)) ? resolve(dir, w) : w,
    );
    return { kind: 'argv', argv: Object.freeze(argv) };
  }
  const m = PROGRAM_WORD.exec(program.command);
  if (m === null) return program;
  const word = m[2]!.replaceAll(/^["']|["']$/g, '');
  if (!isRelativePath(word)) return program;
  const command = `${m[1]}${shellQuote(resolve(dir, word))}${program.command.slice(m[0].length)}`;
  return { ...program, command };
}
