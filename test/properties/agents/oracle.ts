// What an agent decides for a tool call, written from the agent's own code (the oracles of the
// invariant-7 properties, docs/development.md): one module per agent reads a hook's run (exit code,
// stdout, stderr) as that agent does, says whether the agent runs a hook with a given matcher for
// the call, and combines the hooks' verdicts. Nothing here is hookwarden's code.

export type Decision = 'block' | 'ask' | 'allow' | 'none';

/** One hook's verdict in the agent's reading, and the rule of its code that gave it. */
export interface Verdict {
  readonly decision: Decision;
  readonly why: string;
}

/** A finished hook process (`exitCode` null: killed by a signal). */
export interface HookRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The call a hook is asked about, in the agent's own words. */
export interface Call {
  /** The tool's name as the agent sends it (none on a prompt event). */
  readonly tool?: string | undefined;
  /** The shell command (Cursor's beforeShellExecution matchers test it). */
  readonly command?: string | undefined;
}

export interface Oracle {
  /** The agent and the version its code was read from. */
  readonly title: string;
  /** Where the rules come from (files and functions of the agent's code, or its docs). */
  readonly source: string;
  /** The agent's reading of one hook's run at `event` (`failClosed`: Cursor's entry field). */
  read(event: string, run: HookRun, hook?: { readonly failClosed?: boolean | undefined }): Verdict;
  /** Whether the agent runs a hook with `matcher` (undefined: none) for the call at `event`. */
  runs(event: string, matcher: string | undefined, call: Call): boolean;
}

/** How strict a decision is: a block 3, an ask 2, no opinion 1, an allow 0. */
export const rank = (d: Decision): number => ({ block: 3, ask: 2, none: 1, allow: 0 })[d];

/** The agents' common combination: any block blocks, else any ask asks, else any allow allows. */
export function combine(vs: readonly Verdict[]): Verdict {
  for (const d of ['block', 'ask', 'allow'] as const) {
    const v = vs.find((x) => x.decision === d);
    if (v !== undefined) return v;
  }
  return vs[0] ?? { decision: 'none', why: 'no hook ran' };
}

/** JSON.parse without throwing (undefined: not JSON). */
export function tryJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

export const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
