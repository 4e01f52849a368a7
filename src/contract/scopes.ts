// The scopes of a hook and the two orders between them (docs/security.md#two-scope-orders). Dependency-free.
//
// - Override order, highest first: which hook replaces which when two have the same event and name.
//   As in Claude Code, a project file's hook replaces the user's; nothing replaces a policy hook.
// - Trust order, most trusted first: whose restrictions reach whose hooks. A file's floors and caps
//   (`limits`) apply to the hooks of its own scope and of every less-trusted scope, never to a more
//   trusted one. A repository's files (project scope) are the least trusted code a user runs, so the
//   user's own file restricts them, and they never restrict the user's or the policy's hooks.

export const SCOPES = ['trusted', 'policy', 'project', 'user'] as const;

export type Scope = (typeof SCOPES)[number];

/** Which hook replaces which, highest first. */
export const OVERRIDE_ORDER: readonly Scope[] = Object.freeze(['trusted', 'policy', 'project', 'user']);

/** Whose limits reach whose hooks, most trusted first. */
export const TRUST_ORDER: readonly Scope[] = Object.freeze(['trusted', 'policy', 'user', 'project']);

/** The scopes `scope`'s restrictions reach: itself and every less-trusted scope, in trust order. */
export const reachedBy = (scope: Scope): readonly Scope[] => TRUST_ORDER.slice(TRUST_ORDER.indexOf(scope));

/** Whether `a` is more trusted than `b`. */
export const moreTrusted = (a: Scope, b: Scope): boolean => TRUST_ORDER.indexOf(a) < TRUST_ORDER.indexOf(b);

/**
 * A scope's place in the override order (0: trusted). The re-check after a rewrite uses it: a hook
 * whose scope outranks the rewriting hook's guards that rewrite (docs/semantics.md).
 */
export const overrideRank = (scope: Scope): number => OVERRIDE_ORDER.indexOf(scope);
