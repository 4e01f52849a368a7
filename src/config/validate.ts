// Validation without running anything: what `hookwarden validate` reports.

import { compileModule } from '../../sandbox/js/compile.js';
import type { ExecutorOptions } from '../executor/options.js';
import { resolveOptions } from '../executor/options.js';
import type { PackStatus } from '../packs/pins.js';
import type { Diagnostic } from './diagnostics.js';
import { loadConfig } from './load.js';

export interface ValidationReport {
  /** Every problem, with file, JSON path and the value received. */
  readonly diagnostics: readonly Diagnostic[];
  /** Number of hooks that would run (all events, all scopes). */
  readonly hookCount: number;
  readonly errorCount: number;
  readonly warningCount: number;
  /** Policy failures: deny-capable events would deny. */
  readonly policyFailures: readonly string[];
  /** Every pinned pack, verified: digest, signing key, or why it is refused. */
  readonly packs: readonly PackStatus[];
}

export async function validateConfig(
  options: Pick<ExecutorOptions, 'config' | 'policy' | 'root' | 'limits'>,
): Promise<ValidationReport> {
  const resolved = resolveOptions(options);
  const loaded = await loadConfig({
    config: resolved.config,
    policy: resolved.policy,
    limits: resolved.limits,
  });
  // A refused user-scope pack only warns at run time (its hooks are skipped); validating, it is an error.
  const refusedUserPins = new Set(
    loaded.packs
      .filter((p) => p.refusal !== undefined && p.scope === 'user')
      .map((p) => `${p.file}\0${p.path}`),
  );
  const diagnostics = loaded.diagnostics.map((d) =>
    d.severity === 'warning' && d.skipped && refusedUserPins.has(`${d.file}\0${d.path}`)
      ? { ...d, severity: 'error' as const }
      : d,
  );
  // JS hooks are compiled (never run) so syntax errors show with their file and line.
  for (const hook of loaded.hooks) {
    if (hook.js === undefined) continue;
    // The operator's report names the full path (records given to hooks and results never do).
    const problem = await compileModule(hook.js.code, hook.js.sourcePath ?? hook.js.filename);
    if (problem !== undefined) {
      diagnostics.push({
        severity: 'error',
        file: hook.location.file,
        path: hook.location.path,
        message: problem,
        skipped: false,
      });
    }
  }
  return {
    diagnostics,
    hookCount: loaded.hooks.length,
    errorCount: diagnostics.filter((d) => d.severity === 'error').length,
    warningCount: diagnostics.filter((d) => d.severity === 'warning').length,
    policyFailures: loaded.policyFailures,
    packs: loaded.packs,
  };
}
