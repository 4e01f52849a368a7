// `if: "Tool(pattern)"` filters (DESIGN §3): the tool name must match (matcher rules), then the tool
// input's values are flattened (depth-first, key order) and the pattern must match either one value
// or all of them joined with spaces. Patterns: `/regex/` or `/regex/i` (searched), otherwise a glob
// matched against the whole string: `*` any run of characters, `?` one character, and Claude Code's
// trailing `:*` meaning "this prefix". Everything runs on the linear-time regex engine.
import { ToolMatcher } from './matcher.js';
import { LinearRegex, RegexSyntaxError } from './regex/linear-regex.js';

const SHAPE = /^\s*([^()\s]+)\s*(?:\(([\s\S]*)\))?\s*$/;
const MAX_FLATTEN_DEPTH = 32;

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

function flatten(value: unknown, out: string[], depth: number): void {
  if (value === null || value === undefined) return;
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (typeof value === 'object' && depth < MAX_FLATTEN_DEPTH) {
    for (const v of Array.isArray(value) ? value : Object.values(value)) flatten(v, out, depth + 1);
  }
}

/** The flattened values of a tool input, in order. */
export function flattenToolInput(toolInput: unknown): string[] {
  const out: string[] = [];
  flatten(toolInput, out, 0);
  return out;
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

  matches(toolName: string | undefined, toolInput: unknown): boolean {
    if (!this.#tool.matches(toolName)) return false;
    if (this.#pattern === undefined) return true;
    const values = flattenToolInput(toolInput);
    if (values.some((v) => this.#pattern!.test(v))) return true;
    return values.length > 1 && this.#pattern.test(values.join(' '));
  }
}
