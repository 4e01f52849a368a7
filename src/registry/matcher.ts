// Tool-name matchers (docs/configuration.md#matchers-and-if), decided as Claude Code decides them (2.1.333,
// its shipped matcher code): `*`/empty → all; a pattern of only letters, digits, `_`, `|` (and, on most
// events, `,`, space and `-`) is a list of exact names split on `|` (and `,`), each trimmed ("Edit" does not
// match "NotebookEdit"); anything else is a JavaScript regular expression, searched in the name
// (`new RegExp(p).test(name)`). Config patterns are untrusted, so they run on the linear-time engine
// (./regex), never on V8's backtracking one. A pattern the engine cannot evaluate exactly as
// JavaScript would — lookaround, backreferences, octal escapes, or one that is not a valid regex at
// all — is `unevaluable`: it matches every name (when in doubt, run the guard), and the loader says
// so (in a policy file it is a policy failure).

import { type ToolAgent, type ToolSubject, toolNamesIn } from '../contract/tool-vocabulary.js';
import { LinearRegex, RegexSyntaxError } from './regex/linear-regex.js';
import { StepBudget } from './regex/step-budget.js';
import { ANY_RUN } from './regex/wildcard-search.js';
import { toolNames } from './tool-aliases.js';

/** Claude Code's exact form on most events: letters, digits, `_`, `|`, `,`, space and `-`. */
const EXACT_WIDE = /^[a-zA-Z0-9_|, -]+$/;
/** Its exact form on the other events: letters, digits, `_` and `|` only. */
const EXACT_NARROW = /^[a-zA-Z0-9_|]+$/;
/**
 * The events whose matchers Claude Code reads in the narrow exact form (the events with a matcher
 * value that are not in its list of wide ones).
 */
const NARROW_EVENTS: ReadonlySet<string> = new Set(['StopFailure', 'FileChanged']);
/**
 * Codex's exact form (codex-rs/hooks events/common.rs `is_exact_matcher`): letters, digits, `_` and
 * `|` only; anything else (a `-`, a `,`) is a regex searched in the name.
 */
const EXACT_CODEX = /^[A-Za-z0-9_|]+$/;
const CACHE_LIMIT = 1024;

export type MatcherKind = 'all' | 'exact' | 'alternatives' | 'regex' | 'unevaluable';

export interface MatcherOptions {
  /** The event (canonical or Claude Code name): decides which exact form applies. */
  readonly event?: string | undefined;
  /**
   * The coding agent whose file the matcher is from: it names tools in that agent's words
   * (`run_shell_command`), so a call is tested under the agent's names for it too.
   */
  readonly agent?: ToolAgent | undefined;
  /**
   * Every pattern is a regular expression searched in the name (Gemini CLI: `new RegExp(m).test()`,
   * so `read_file` also matches `read_file_v2`), never a list of exact names.
   */
  readonly regexOnly?: boolean | undefined;
}

/** Why a valid JavaScript pattern cannot be evaluated here, or that it is not valid at all. */
function unevaluableWhy(pattern: string, engineError: string): string {
  try {
    new RegExp(pattern); // parsed only, never run
  } catch (err) {
    return `not a valid JavaScript regular expression (${(err as Error).message.replace(/^Invalid regular expression: /, '')})`;
  }
  return `the linear-time engine cannot evaluate it as JavaScript would: ${engineError}`;
}

export class ToolMatcher {
  readonly source: string;
  readonly kind: MatcherKind;
  /** Set when the pattern cannot be evaluated (kind `unevaluable`): why. */
  readonly unevaluable: string | undefined;
  /** The exact names of an `exact` or `alternatives` matcher (empty: it matches no name). */
  readonly names: ReadonlySet<string> | undefined;
  readonly #regex: LinearRegex | undefined;
  readonly #agent: ToolAgent | undefined;
  /** Definite answers by tool name, with the steps their search charged (see #matchesName). */
  readonly #cache = new Map<string, { readonly hit: boolean; readonly steps: number }>();

  constructor(pattern: string | undefined, options: MatcherOptions = {}) {
    const p = pattern?.trim() ?? '';
    this.source = p;
    this.unevaluable = undefined;
    this.#agent = options.agent;
    if (p === '' || p === '*') {
      this.kind = 'all';
      return;
    }
    const narrow =
      options.agent === 'codex' || (options.event !== undefined && NARROW_EVENTS.has(options.event));
    const exact = options.agent === 'codex' ? EXACT_CODEX : narrow ? EXACT_NARROW : EXACT_WIDE;
    if (options.regexOnly !== true && exact.test(p)) {
      const names = p
        .split(narrow ? '|' : /[|,]/)
        .map((n) => n.trim())
        .filter((n) => n !== '');
      this.kind = names.length === 1 ? 'exact' : 'alternatives';
      this.names = new Set(names);
      return;
    }
    try {
      this.#regex = new LinearRegex(p);
      this.kind = 'regex';
    } catch (err) {
      if (!(err instanceof RegexSyntaxError)) throw err;
      this.kind = 'unevaluable';
      this.unevaluable = unevaluableWhy(p, err.message);
    }
  }

  /**
   * Whether the tool name matches, under any name Claude Code gives the tool (tool-aliases.ts: a
   * `Task` matcher matches `Agent` calls). A value that is missing matches (Claude Code: a matcher
   * with nothing to test is met); a search that ran out of `budget`, or a pattern that cannot be
   * evaluated, counts as a match.
   */
  matches(subject: ToolSubject | undefined, budget?: StepBudget): boolean {
    if (this.kind === 'all' || this.kind === 'unevaluable' || subject === undefined) return true;
    if (typeof subject !== 'string') {
      // A name that could be several (trust invariant 7): any of them, or an MCP tool on any server.
      if (subject.names.some((n) => this.matches(n, budget))) return true;
      return subject.anyServer !== undefined && this.#couldBeOnAnyServer(subject.anyServer);
    }
    const toolName = subject;
    const names = this.#agent === undefined ? toolNames(toolName) : toolNamesIn(this.#agent, toolName);
    if (names.length === 1) return this.#matchesName(toolName, budget);
    return names.some((n) => this.#matchesName(n, budget));
  }

  /** Whether MCP tool `tool` ("*": any tool) of some server could be one this matcher names. */
  #couldBeOnAnyServer(tool: string): boolean {
    const any = tool === '*';
    if (this.names !== undefined)
      return [...this.names].some((n) => {
        const m = /^mcp__(.+?)__(.+)$/.exec(n);
        if (m === null) return false;
        // The server part may hold `__` too: any split that leaves the tool.
        return any || (n.endsWith(`__${tool}`) && n.length > `mcp____${tool}`.length);
      });
    return this.#regex!.couldMatch(['mcp__', ANY_RUN, '__', any ? ANY_RUN : tool]);
  }

  /**
   * The cache only saves time: an answer from it is what the search would give with this budget, and
   * it charges the budget the same steps. A search that the budget's allowance could cut short (and
   * so answer "run the guard") is always run for real, so which hooks run never depends on what
   * earlier dispatches (another tenant's, for a policy hook) asked before: fuzz seed 20261203 found a
   * tenant hook that ran in a dispatch alone and not after the same name was cached.
   */
  #matchesName(toolName: string, budget: StepBudget | undefined): boolean {
    if (this.names !== undefined) return this.names.has(toolName);
    const regex = this.#regex!;
    const cached = this.#cache.get(toolName);
    if (cached !== undefined && regex.uncounted(toolName, budget)) {
      budget?.charge(cached.steps);
      return cached.hit;
    }
    const uncounted = regex.uncounted(toolName, budget);
    // A search outside any budget is charged to one without limit, so its cost is known.
    const charged = budget ?? new StepBudget(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    const before = charged.remaining;
    const hit = regex.test(toolName, charged);
    // When in doubt, run the guard (and ask again next time: only definite answers are cached).
    if (hit === undefined) return true;
    if (uncounted) {
      if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
      this.#cache.set(toolName, { hit, steps: before - charged.remaining });
    }
    return hit;
  }
}
