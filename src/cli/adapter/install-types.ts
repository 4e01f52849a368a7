// What `<agent> install` is made of, as types: an installer (what is one agent's), the plan of a
// hooks file (what moves to the copy, what stays), and the command's flags.
import type { Dialect } from '../../contract/dialects.js';

type Obj = Record<string, unknown>;

export interface EventPlan {
  /** Routed groups or entries (to the hooks copy). */
  readonly routed: Obj[];
  /** Groups or entries left with the agent (handlers the adapter does not run). */
  readonly kept: Obj[];
  /** The adapter entry's matcher (undefined: every occurrence). */
  readonly matcher: string | undefined;
  /** A routed hook failed closed (Cursor's failClosed): the adapter hook must too. */
  readonly failClosed?: boolean;
}

export interface InstallPlan {
  /** The agent's event → its plan, for each event that has hooks. */
  readonly events: ReadonlyMap<string, EventPlan>;
  /** The hooks the copy holds (the adapter's config). */
  readonly copy: Obj;
  /** What stays with the agent and why, one line each. */
  readonly notes: readonly string[];
  /** Why the file cannot be routed as it is (install refuses it), one line each. */
  readonly refusals: readonly string[];
}

/** What is one agent's in `install`. */
export interface Installer {
  /** The adapter command (`claude-code`, `cursor`, …). */
  readonly command: string;
  readonly title: string;
  /** The copy's dialect (declared in it). */
  readonly dialect: Dialect;
  /** What the agent's hook files are (for the "no hooks to route" message): `a Claude Code settings.json or hooks.json`. */
  readonly files: string;
  /** One of them, for the "not one" message: `a Claude Code hooks file`. */
  readonly fileNoun: string;
  /** Why `value` is not this agent's hooks file (undefined: it is). */
  notMineWhy(value: Obj, path: string): string | undefined;
  plan(hooks: Obj): InstallPlan;
  /**
   * The event's adapter entries in the agent's shape (the kept ones follow them); `line` makes the
   * command line of adapter words (the words quoted, and the guard).
   */
  entries(
    event: string,
    plan: EventPlan,
    words: readonly string[],
    seconds: number,
    line: (words: readonly string[]) => string,
  ): Obj[];
  /** Where the hooks copy goes by default. */
  copyPath(path: string): string;
  /** Notes on other files the agent also reads (Cursor reads Claude Code's hooks too). */
  otherFiles?(path: string): string[];
}

export interface InstallFlags {
  write?: boolean;
  hooksFile?: string;
  /** A `serve --socket` the adapter forwards to when it runs (written into the command, absolute). */
  socket?: string;
  /** false (--no-client): the Node adapter command even where hookwarden-client was built. */
  client?: boolean;
  /** Links on the way the user names as theirs (install-paths.ts). */
  followLink?: string[];
}
