// The step budget a dispatch's matchers and filters share (linear-regex.ts charges it).

/**
 * Steps a dispatch's matchers and filters may take (a step: one live NFA thread advanced by one
 * character, about 40 ns here). A search over its share gives up; the hook then runs.
 */
export class StepBudget {
  #remaining: number;
  constructor(
    total: number,
    /** Most steps one search may take. */
    readonly perSearch: number,
  ) {
    this.#remaining = total;
  }
  /** Steps the next search may take. */
  allowance(): number {
    return Math.max(0, Math.min(this.#remaining, this.perSearch));
  }
  charge(steps: number): void {
    this.#remaining -= steps;
  }
  get remaining(): number {
    return this.#remaining;
  }
}
