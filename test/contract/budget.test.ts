import { describe, expect, it } from 'vitest';
import { computeDeadline } from '../../src/contract/budget.js';

const rule = { timeoutMs: 30_000, graceMs: 5_000, maxDeclaredBudgetMs: 600_000 };

describe('declared budgets', () => {
  it('keep the timeout when no budget is declared', () => {
    expect(computeDeadline({ ...rule, budgetMs: undefined }).deadlineMs).toBe(30_000);
  });
  it('are a floor: a larger budget widens the deadline to budget + 5 s grace', () => {
    expect(computeDeadline({ ...rule, budgetMs: 90_000 }).deadlineMs).toBe(95_000);
  });
  it('give the grace to a budget equal to the timeout', () => {
    expect(computeDeadline({ ...rule, budgetMs: 30_000 }).deadlineMs).toBe(35_000);
  });
  it('never narrow: a smaller budget is ignored', () => {
    const d = computeDeadline({ ...rule, budgetMs: 1_000 });
    expect(d).toMatchObject({ deadlineMs: 30_000, budgetIgnored: true });
  });
  it('are clamped at maxDeclaredBudgetMs', () => {
    const d = computeDeadline({ ...rule, budgetMs: 10 ** 12 });
    expect(d).toMatchObject({ deadlineMs: 605_000, budgetMs: 600_000, budgetClamped: true });
  });
});
