// `if: "Tool(pattern)"` filters (docs/configuration.md#matchers-and-if): the tool name must match (matcher
// rules, legacy names included), then the pattern must match the call. For the tools Claude Code's permission
// rules know (permission-rule.ts) the pattern means what it means there: `Bash(git push*)` is
// matched against each simple command of a compound one, `Read(./.env)` and `Edit(src/**)` are
// gitignore-style paths. For the others, the tool input's values are flattened (depth-first, key
// order) and the pattern must match either one value or all of them joined with spaces, as a glob
// over the whole string (`*` any run, `?` one character, a trailing `:*` "this prefix").
// hookwarden's `/regex/` or `/regex/i` form is searched in the flattened values for every tool
// (for a path tool, the path rule is tried too). Everything runs on the linear-time regex engine.
import type { ToolSubject } from '../contract/tool-vocabulary.js';
import { ToolMatcher } from './matcher.js';
import { CommandRule, PATH_TOOLS, PathRule, type RuleOrigin } from './permission-rule.js';
import { LinearRegex, RegexSyntaxError } from './regex/linear-regex.js';
import type { StepBudget } from './regex/step-budget.js';
import { currentToolName } from './tool-aliases.js';

const SHAPE = /^\s*([^()\s]+)\s*(?:\(([\s\S]*)\))?\s*$/;
/** Deeper than any input accepted (limits.maxInputDepth is at most 512); past it, in doubt. */
const MAX_WALK_DEPTH = 1024;

/** Why a pattern's flags cannot be read (internal: it makes the filter unevaluable). */
class IfFilterError extends Error {
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

/** The tool whose permission rules a filter's tool part names, when it names exactly one. */
function ruleTool(tool: string): string | undefined {
  if (!/^[A-Za-z0-9_]+$/.test(tool)) return undefined;
  const current = currentToolName(tool);
  return current === 'Bash' || Object.hasOwn(PATH_TOOLS, current) ? current : undefined;
}

export class IfFilter {
  readonly source: string;
  /**
   * Set when the filter cannot be fully evaluated (it is not of the `Tool(pattern)` shape, its regex
   * is one the linear engine cannot run as JavaScript would or is not a regex at all, its flags are
   * not supported): why. Such a filter accepts every call its tool part accepts (every call, when
   * even that could not be read): when in doubt, run the guard (trust invariant 3).
   */
  readonly unevaluable: string | undefined;
  readonly #tool: ToolMatcher;
  readonly #pattern: LinearRegex | undefined;
  /** Claude Code's meaning of the pattern for Bash and the path tools. */
  readonly #rule: { tool: string; rule: CommandRule | PathRule } | undefined;

  /**
   * Never throws for what a config may write: a filter that cannot be evaluated is `unevaluable`
   * (the loader warns, or fails a policy closed). `origin`: the config file's folder, what a path
   * rule's leading `/` is relative to.
   */
  constructor(source: string, origin: RuleOrigin = { configDir: process.cwd() }) {
    this.source = source;
    const m = SHAPE.exec(source);
    if (m === null) {
      this.#tool = new ToolMatcher(undefined);
      this.unevaluable = 'expected "Tool" or "Tool(pattern)", e.g. "Bash(git *)"';
      return;
    }
    this.#tool = new ToolMatcher(m[1]);
    const pattern = m[2]?.trim();
    if (pattern === undefined || pattern === '' || pattern === '*') return;
    const re = /^\/([\s\S]*)\/([a-z]*)$/.exec(pattern);
    const tool = ruleTool(m[1]!);
    try {
      if (tool !== undefined && (re === null || tool !== 'Bash'))
        this.#rule = {
          tool,
          rule: tool === 'Bash' ? new CommandRule(pattern) : new PathRule(pattern, origin),
        };
      if (re !== null) {
        const flags = re[2] ?? '';
        if (/[^i]/.test(flags)) throw new IfFilterError(`unsupported regex flags "${flags}" (only "i")`);
        this.#pattern = new LinearRegex(re[1]!, { ignoreCase: flags === 'i' });
      } else if (this.#rule === undefined) this.#pattern = new LinearRegex(globToRegex(pattern));
    } catch (err) {
      if (err instanceof RegexSyntaxError) this.unevaluable = `invalid pattern "${pattern}": ${err.message}`;
      else if (err instanceof IfFilterError) this.unevaluable = err.message;
      else throw err;
      this.#rule = undefined;
      this.#pattern = undefined;
    }
  }

  /**
   * Whether the filter accepts the call. When in doubt it does (trust invariant 3): a value nested
   * deeper than the walk, or a search that ran out of `budget`, counts as a match.
   */
  matches(tool: ToolSubject | undefined, toolInput: unknown, budget?: StepBudget, cwd?: string): boolean {
    if (!this.#tool.matches(tool, budget)) return false;
    if (this.unevaluable !== undefined) return true;
    const rule = this.#rule;
    if (rule !== undefined && this.#ruleMatches(rule, toolInput, cwd, budget)) return true;
    const pattern = this.#pattern;
    if (pattern === undefined) return rule === undefined;
    const { values, complete } = flattenToolInput(toolInput);
    if (!complete) return true;
    for (const v of values) if (pattern.test(v, budget) !== false) return true;
    return values.length > 1 && pattern.test(values.join(' '), budget) !== false;
  }

  #ruleMatches(
    { tool, rule }: { tool: string; rule: CommandRule | PathRule },
    toolInput: unknown,
    cwd: string | undefined,
    budget: StepBudget | undefined,
  ): boolean {
    // An input that is not an object: nothing to judge, so the guard runs.
    if (typeof toolInput !== 'object' || toolInput === null) return true;
    const input = toolInput as Record<string, unknown>;
    if (rule instanceof CommandRule) return rule.matches(input.command, budget);
    return rule.matches(input[PATH_TOOLS[tool]!], cwd, budget);
  }
}
