// Tool-name matchers (DESIGN §3): `*`/empty → all; a plain name or `a|b` list of plain names → exact
// comparison (as Claude Code does: "Edit" does not match "NotebookEdit"); anything else → a regex
// searched in the name, run by the linear-time engine; a pattern that is not a valid regex falls back
// to `a|b` alternatives compared exactly (with a warning at load).
import { LinearRegex, RegexSyntaxError } from './regex/linear-regex.js';
import type { StepBudget } from './regex/step-budget.js';
import { toolNames } from './tool-aliases.js';

/** Claude Code's exact form: letters, digits, `_`, `-`, spaces, and `|` or `,` between names. */
const SIMPLE = /^[A-Za-z0-9_ -]+([|,][A-Za-z0-9_ -]+)*$/;
const CACHE_LIMIT = 1024;

export type MatcherKind = 'all' | 'exact' | 'regex' | 'alternatives';

export class ToolMatcher {
  readonly source: string;
  readonly kind: MatcherKind;
  /** Set when the pattern was not a valid regex and fell back to alternatives. */
  readonly regexError: string | undefined;
  readonly #names: ReadonlySet<string> | undefined;
  readonly #regex: LinearRegex | undefined;
  readonly #cache = new Map<string, boolean>();

  constructor(pattern: string | undefined) {
    const p = pattern?.trim() ?? '';
    this.source = p;
    this.regexError = undefined;
    if (p === '' || p === '*') {
      this.kind = 'all';
      return;
    }
    if (SIMPLE.test(p)) {
      const names = p.split(/[|,]/).map((n) => n.trim());
      this.kind = names.length > 1 ? 'alternatives' : 'exact';
      this.#names = new Set(names);
      return;
    }
    try {
      this.#regex = new LinearRegex(p);
      this.kind = 'regex';
    } catch (err) {
      if (!(err instanceof RegexSyntaxError)) throw err;
      this.kind = 'alternatives';
      this.regexError = err.message;
      this.#names = new Set(p.split('|').map((s) => s.trim()));
    }
  }

  /**
   * Whether the tool name matches, under any name Claude Code gives the tool (tool-aliases.ts: a
   * `Task` matcher matches `Agent` calls). A value that is missing matches (Claude Code: a matcher
   * with nothing to test is met); a search that ran out of `budget` counts as a match.
   */
  matches(toolName: string | undefined, budget?: StepBudget): boolean {
    if (this.kind === 'all' || toolName === undefined) return true;
    const names = toolNames(toolName);
    if (names.length === 1) return this.#matchesName(toolName, budget);
    return names.some((n) => this.#matchesName(n, budget));
  }

  #matchesName(toolName: string, budget: StepBudget | undefined): boolean {
    if (this.#names !== undefined) return this.#names.has(toolName);
    const cached = this.#cache.get(toolName);
    if (cached !== undefined) return cached;
    const hit = this.#regex!.test(toolName, budget);
    // When in doubt, run the guard (and ask again next time: only definite answers are cached).
    if (hit === undefined) return true;
    if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
    this.#cache.set(toolName, hit);
    return hit;
  }
}
