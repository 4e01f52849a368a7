// The content of a Claude Code permission rule (`Bash(git push:*)`, `Read(./.env)`), matched as
// Claude Code 2.1.333 matches it in a hook's `if` (its permission matchers):
//
// - Bash: each simple command of the call (bash-commands.ts) against the rule: `prefix:*` is the
//   command or the command followed by a space; otherwise `*` is any run of characters, a single
//   trailing ` *` makes the arguments optional, and a rule without `*` is the whole command. Runs of
//   spaces count as one. `xargs <command>` is tried as `<command>` too.
// - Read, Edit, Write, NotebookEdit, MultiEdit: the file's path against a gitignore-style pattern
//   rooted where the rule says: `//abs` the file system root, `~/` the home folder, `/` the settings
//   file's folder (and, since which folder is meant is read differently, the project root and the
//   file system root too), `./` or bare the working directory. `*` and `?` stay within a path
//   segment, `**` crosses them, a pattern without a slash matches at any depth, and a folder's pattern
//   matches everything below it.
//
// Where the value cannot be split or resolved with confidence (a relative path without a working
// directory, a command this splitter does not know), the rule counts as matched (trust invariant 3).
// Every pattern runs on the linear-time regex engine.
import { homedir } from 'node:os';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { simpleCommands } from './bash-commands.js';
import { LinearRegex } from './regex/linear-regex.js';
import type { StepBudget } from './regex/step-budget.js';

const escapeRegex = (s: string) => s.replace(/[\\^$.|?*+()[\]{}/-]/g, (c) => `\\${c}`);

/** Where the rule's file lives: what `/` and `./` are relative to. */
export interface RuleOrigin {
  /** The settings (config) file's folder. */
  readonly configDir: string;
}

/** A compiled `Bash(...)` rule. */
export class CommandRule {
  readonly #prefix: string | undefined;
  readonly #regex: LinearRegex | undefined;

  constructor(content: string) {
    const rule = content.trim().replace(/[ \t]+/g, ' ');
    const prefix = /^(.+):\*$/.exec(rule);
    if (prefix !== null) {
      this.#prefix = prefix[1]!;
      return;
    }
    // `\*` is a literal star; `*` any run; a lone trailing ` *` also matches no arguments. (`?` is
    // one character here, where Claude Code reads it literally: a superset, so the guard runs.)
    const parts: string[] = [];
    let literal = '';
    let stars = 0;
    for (let i = 0; i < rule.length; i++) {
      const c = rule[i]!;
      if (c === '\\' && (rule[i + 1] === '*' || rule[i + 1] === '\\')) literal += rule[++i];
      else if (c === '*') {
        parts.push(literal);
        literal = '';
        stars++;
      } else literal += c;
    }
    parts.push(literal);
    const glob = (t: string) => escapeRegex(t).replaceAll('\\?', '[\\s\\S]');
    let source = parts.map(glob).join('[\\s\\S]*');
    if (stars === 1 && parts[1] === '' && parts[0]!.endsWith(' '))
      source = `${glob(parts[0]!.slice(0, -1))}(?: [\\s\\S]*)?`;
    this.#regex = new LinearRegex(`^${source}$`);
  }

  #one(command: string, budget: StepBudget | undefined): boolean {
    if (this.#prefix !== undefined) return command === this.#prefix || command.startsWith(`${this.#prefix} `);
    return this.#regex!.test(command, budget) !== false;
  }

  /** Whether the rule matches a call of `command` (in doubt: yes). */
  matches(command: unknown, budget?: StepBudget): boolean {
    if (typeof command !== 'string') return true;
    const commands = simpleCommands(command);
    if (commands === undefined) return true;
    return commands.some((c) => {
      const normal = c.replace(/[ \t]+/g, ' ');
      return this.#one(normal, budget) || (normal.startsWith('xargs ') && this.#one(normal.slice(6), budget));
    });
  }
}

/** A gitignore-style pattern (no leading root marker) as a regex source over a `/`-separated relative path. */
function gitignoreSource(pattern: string): string {
  let p = pattern;
  const dirOnly = p.endsWith('/') && p.length > 1;
  if (dirOnly) p = p.slice(0, -1);
  const anchored = p.startsWith('/') || p.slice(0, -1).includes('/');
  if (p.startsWith('/')) p = p.slice(1);
  let out = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*' && p[i + 1] === '*') {
      const before = i === 0 || p[i - 1] === '/';
      const after = p[i + 2] === '/' || i + 2 === p.length;
      if (before && after) {
        if (p[i + 2] === '/') {
          out += '(?:[^/]*/)*';
          i += 2;
        } else {
          out += '[\\s\\S]*';
          i += 1;
        }
        continue;
      }
      out += '[^/]*';
      i++;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '\\' && i + 1 < p.length) out += escapeRegex(p[++i]!);
    else out += escapeRegex(c);
  }
  // A folder's pattern covers what is below it; a pattern without a slash matches at any depth.
  return `^${anchored ? '' : '(?:[^/]*/)*'}${out}${dirOnly ? '/[\\s\\S]*' : '(?:/[\\s\\S]*)?'}$`;
}

/** A compiled path rule (Read, Edit, Write, NotebookEdit, MultiEdit). */
export class PathRule {
  readonly #roots: readonly (string | 'cwd')[];
  readonly #regex: LinearRegex;

  constructor(content: string, origin: RuleOrigin) {
    const rule = content.trim();
    let pattern: string;
    let roots: (string | 'cwd')[];
    if (rule.startsWith('//')) {
      pattern = rule.slice(1);
      roots = ['/'];
    } else if (rule.startsWith('~/')) {
      pattern = rule.slice(1);
      roots = [homedir()];
    } else if (rule.startsWith('/')) {
      pattern = rule;
      const project = origin.configDir.endsWith(`${sep}.claude`)
        ? dirname(origin.configDir)
        : origin.configDir;
      roots = [...new Set([origin.configDir, project, '/'])];
    } else {
      pattern = rule.startsWith('./') ? rule.slice(2) : rule;
      roots = ['cwd'];
    }
    this.#roots = roots;
    this.#regex = new LinearRegex(gitignoreSource(pattern));
  }

  /** Whether the rule matches a call on `path` made from `cwd` (in doubt: yes). */
  matches(path: unknown, cwd: string | undefined, budget?: StepBudget): boolean {
    if (typeof path !== 'string' || path === '') return true;
    for (const root of this.#roots) {
      const base = root === 'cwd' ? cwd : root;
      if (base === undefined) return true;
      const abs = isAbsolute(path) ? resolve(path) : cwd === undefined ? undefined : resolve(cwd, path);
      if (abs === undefined) return true;
      const rel = relative(base, abs).split(sep).join('/');
      if (rel.startsWith('..') || isAbsolute(rel)) continue;
      if (this.#regex.test(rel === '' ? '.' : rel, budget) !== false) return true;
    }
    return false;
  }
}

/** The tools whose rules are path rules, and the input field that holds the path. */
export const PATH_TOOLS: Readonly<Record<string, string>> = Object.freeze({
  Read: 'file_path',
  Edit: 'file_path',
  Write: 'file_path',
  MultiEdit: 'file_path',
  NotebookEdit: 'notebook_path',
});
