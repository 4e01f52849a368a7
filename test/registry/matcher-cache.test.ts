// A tool matcher's cache of definite answers saves time only: an answer from it is what the search
// would give under the same step budget, and charges the same steps. Found by the invariant-6
// property (fuzz seed 20261203, case 55080): a policy hook's `if` filter over a long input spent
// the dispatch's budget, so a tenant hook's regex matcher could not be evaluated and its hook ran
// ("when in doubt, run the guard"); once an earlier dispatch, of any tenant, had cached that tool
// name, the same dispatch skipped the hook instead. The property replays it:
// HOOKWARDEN_PROPERTY_SEED=20261203 HOOKWARDEN_PROPERTY_PATH=<docs/development.md> npx vitest run test/properties/tenants.test.ts
import { describe, expect, it } from 'vitest';
import { ToolMatcher } from '../../src/registry/matcher.js';
import { StepBudget } from '../../src/registry/regex/step-budget.js';

/** A budget with `left` steps of its dispatch's total left. */
const budget = (left: number) => {
  const b = new StepBudget(250_000, 100_000);
  b.charge(250_000 - left);
  return b;
};

describe('the tool matcher cache', () => {
  it('gives the answer and charges the steps the search would, whatever was asked before', () => {
    for (const pattern of ['^[^B]', 'B.*h$', 'mcp__.*__write', '(Edit|Write)x?']) {
      for (const name of ['Bash', 'mcp__github__write', 'Edit', 'x'.repeat(5000)]) {
        for (const left of [0, 1, 5, 200, 30_000, 250_000]) {
          const fresh = new ToolMatcher(pattern);
          const warm = new ToolMatcher(pattern);
          warm.matches(name, budget(250_000)); // a definite answer, now cached
          warm.matches(name); // and without a budget
          const [b1, b2] = [budget(left), budget(left)];
          expect(warm.matches(name, b2), `${pattern} on ${name.slice(0, 20)}, ${left} left`).toBe(
            fresh.matches(name, b1),
          );
          expect(b2.remaining).toBe(b1.remaining);
        }
      }
    }
  });
});
