// `if: "Tool(pattern)"` filters (DESIGN §3): the tool name must match (matcher rules), then the tool
// input's values are flattened (depth-first, key order) and the pattern must match either one value
// or all of them joined with spaces. Patterns: `/regex/` or `/regex/i` (searched), otherwise a glob
// matched against the whole string: `*` any run of characters, `?` one character, and Claude Code's
// trailing `:*` meaning "this prefix". Everything runs on the linear-time regex engine.
import { ToolMatcher } from './matcher.js';
import { LinearRegex, RegexSyntaxError } from './regex/linear-regex.js';
import type { StepBudget } from './regex/step-budget.js';

const SHAPE = /^\s*([^()\s]+)\s*(?:\(([\s\S]*)\))?\s*$/;
/** Deeper than any input accepted (limits.maxInputDepth is at most 512); past it, in doubt. */
const MAX_WALK_DEPTH = 1024;

export class IfFilterError extends Error {
  override readonly name = 'IfFilterError';
}

function globToRegex(glob: string): string {
  let g = glob;
  let prefix = false;
  if (g.endsWith(':*')) {
    g = g.slice(0, -2);
    prefix = true;
  }
  let out = '^';
  for (const ch of g) {
    if (ch === '*') out += '[\\s\\S]*';
    else if (ch === '?') out += '[\\s\\S]';
    else out += ch.replace(/[\\^$.|?*+()[\]{}/-]/g, (c) => `\\${c}`);
  }
  return prefix ? out : `${out}$`;
}

/**
 * The flattened values of a tool input, depth-first in key order, walked without recursion.
 * `complete` is false when a value lies deeper than MAX_WALK_DEPTH: the filter then cannot be fully
 * evaluated, and counts as a match.
 */
export function flattenToolInput(toolInput: unknown): { values: string[]; complete: boolean } {
  const values: string[] = [];
  let complete = true;
  // Pending values, last first, each with its depth.
  const stack: unknown[] = [toolInput];
  const depths: number[] = [0];
  while (stack.length > 0) {
    const value = stack.pop();
    const depth = depths.pop()!;
    if (value === null || value === undefined) continue;
    if (typeof value === 'string') values.push(value);
    else if (typeof value === 'number' || typeof value === 'boolean') values.push(String(value));
    else if (typeof value === 'object') {
      if (depth >= MAX_WALK_DEPTH) {
        complete = false;
        continue;
      }
      const children = Array.isArray(value) ? value : Object.values(value);
      for (let i = children.length - 1; i >= 0; i--) {
        stack.push(children[i]);
        depths.push(depth + 1);
      }
    }
  }
  return { values, complete };
}

export class IfFilter {
  readonly source: string;
  readonly #tool: ToolMatcher;
  readonly #pattern: LinearRegex | undefined;

  /** Throws IfFilterError (with a message fit for a config diagnostic) on a malformed filter. */
  constructor(source: string) {
    this.source = source;
    const m = SHAPE.exec(source);
    if (m === null) throw new IfFilterError('expected "Tool" or "Tool(pattern)", e.g. "Bash(git *)"');
    this.#tool = new ToolMatcher(m[1]);
    const pattern = m[2]?.trim();
    if (pattern === undefined || pattern === '' || pattern === '*') return;
    const re = /^\/([\s\S]*)\/([a-z]*)$/.exec(pattern);
    try {
      if (re !== null) {
        const flags = re[2] ?? '';
        if (/[^i]/.test(flags)) throw new IfFilterError(`unsupported regex flags "${flags}" (only "i")`);
        this.#pattern = new LinearRegex(re[1]!, { ignoreCase: flags === 'i' });
      } else this.#pattern = new LinearRegex(globToRegex(pattern));
    } catch (err) {
      if (err instanceof RegexSyntaxError)
        throw new IfFilterError(`invalid pattern "${pattern}": ${err.message}`);
      throw err;
    }
  }

  /**
   * Whether the filter accepts the call. When in doubt it does (trust invariant 3): a value nested
   * deeper than the walk, or a search that ran out of `budget`, counts as a match.
   */
  matches(toolName: string | undefined, toolInput: unknown, budget?: StepBudget): boolean {
    if (!this.#tool.matches(toolName, budget)) return false;
    const pattern = this.#pattern;
    if (pattern === undefined) return true;
    const { values, complete } = flattenToolInput(toolInput);
    if (!complete) return true;
    for (const v of values) if (pattern.test(v, budget) !== false) return true;
    return values.length > 1 && pattern.test(values.join(' '), budget) !== false;
  }
}
