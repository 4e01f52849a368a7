// The warning an executor gives once, on the first dispatch that ran a process-mode command hook
// beside the host (docs/security.md): which reason the host gave, and how to fix or refuse it.
import type { Diagnostic } from '../config/diagnostics.js';
import type { DispatchResult } from '../contract/result.js';

/** Gives the warning to `warn` once, for the first result with a hook that ran uncontained. */
export class UncontainedWarning {
  readonly #warn: (d: Diagnostic) => void;
  #given = false;

  constructor(warn: (d: Diagnostic) => void) {
    this.#warn = warn;
  }

  check(result: DispatchResult): void {
    if (this.#given) return;
    const hook = result.hooks.find((h) => h.containment === 'uncontained');
    if (hook === undefined) return;
    this.#given = true;
    this.#warn({
      severity: 'warning',
      file: '<host>',
      path: 'isolation',
      message: `process-mode command hooks run uncontained on this host (${hook.uncontainedReason ?? 'no reason given'}): they see its processes and can signal those of their user. \`hookwarden doctor\` says why and how to fix it; limits.minIsolation "contained" makes such hooks fail closed instead`,
      skipped: false,
    });
  }
}
