// Deadlines and declared budgets (docs/configuration.md#hook-fields). Pure: the loader computes each hook's
// deadline once.
//
// A declared `budgetMs` is a floor, never an override: when budgetMs >= timeoutMs the deadline widens
// to budgetMs + grace (equality included, so a budget equal to the default still gets its grace);
// a smaller budget is ignored. Declared budgets are clamped at maxDeclaredBudgetMs.

export interface DeadlineRule {
  readonly timeoutMs: number;
  readonly budgetMs: number | undefined;
  readonly graceMs: number;
  readonly maxDeclaredBudgetMs: number;
}

export interface Deadline {
  readonly deadlineMs: number;
  /** The budget after the clamp (undefined when none was declared). */
  readonly budgetMs: number | undefined;
  readonly budgetClamped: boolean;
  /** True when a declared budget was smaller than the timeout and therefore ignored. */
  readonly budgetIgnored: boolean;
}

export function computeDeadline(rule: DeadlineRule): Deadline {
  const { timeoutMs, graceMs, maxDeclaredBudgetMs } = rule;
  if (rule.budgetMs === undefined) {
    return { deadlineMs: timeoutMs, budgetMs: undefined, budgetClamped: false, budgetIgnored: false };
  }
  const budgetClamped = rule.budgetMs > maxDeclaredBudgetMs;
  const budgetMs = budgetClamped ? maxDeclaredBudgetMs : rule.budgetMs;
  if (budgetMs >= timeoutMs)
    return { deadlineMs: budgetMs + graceMs, budgetMs, budgetClamped, budgetIgnored: false };
  return { deadlineMs: timeoutMs, budgetMs, budgetClamped, budgetIgnored: true };
}
