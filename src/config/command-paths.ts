// Relative command paths in hookwarden-dialect config files resolve against the config file's
// folder, like a JS hook's `source`: the program (argv[0], `command` with `args`, the first word of a
// shell command after any NAME=value assignments) when it is a relative path with a slash
// (`./guard.sh`, `../bin/x`, `hooks/x.sh`), and argv/args words that start with `./` or `../`. The
// hook still runs with cwd = the sandbox root. Claude Code and FreeCode files keep their systems'
// rule: relative to the project root, the hook's working directory.
import { existsSync } from 'node:fs';
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

/** Like resolveCommandPaths, but only for a program that exists under `dir` (Cursor's two conventions). */
export function resolveExistingPaths(
  program: CommandHookSpec['program'],
  dir: string,
): CommandHookSpec['program'] {
  const file = programPath(program);
  if (file === undefined || isAbsolute(file) || !file.includes('/')) return program;
  return existsSync(resolve(dir, file)) ? resolveCommandPaths(program, dir) : program;
}

/** The program file a command runs, when it names one by path (for `validate`'s existence check). */
function programPath(program: CommandHookSpec['program']): string | undefined {
  if (program.kind === 'argv') return program.argv[0];
  const m = PROGRAM_WORD.exec(program.command);
  return m === null ? undefined : m[2]!.replaceAll(/^["']|["']$/g, '');
}
