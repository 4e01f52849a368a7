// Whether a freshly loaded configuration may replace the one in force (docs/tenants-and-audit.md#hot-reload).
// A reload fails, and the last-known-good generation stays, when the new load has a fatal problem, an
// error diagnostic the current generation does not have, or a policy failure it does not have: so a
// broken edit never drops hooks (policy hooks least of all), while problems that were already there
// do not block unrelated edits. Warnings never block, and neither does a problem inside one
// tenant's section: that tenant alone keeps its last good state (tenant-carry.ts).
import type { Limits } from '../config/defaults.js';
import { type Diagnostic, formatDiagnostic } from '../config/diagnostics.js';
import type { LoadedConfig } from '../config/load.js';

/** The outcome of `Executor.reload()` (also given to `onReload`). */
export type ReloadResult =
  | {
      readonly ok: true;
      /** Number of the generation now in force (1 = the one createExecutor loaded). */
      readonly generation: number;
      /** Every diagnostic of the new configuration. */
      readonly diagnostics: readonly Diagnostic[];
    }
  | {
      readonly ok: false;
      /** Number of the generation still in force: the last-known-good one. */
      readonly generation: number;
      /** Why the new configuration was refused, naming the file, the JSON path and the problem. */
      readonly reason: string;
      /** Every diagnostic of the refused configuration. */
      readonly diagnostics: readonly Diagnostic[];
    };

const key = (d: Diagnostic) => `${d.severity}\0${d.file}\0${d.path}\0${d.message}`;

/** Diagnostics of `next` that `current` did not have (reported once, not at every reload). */
export function newDiagnostics(current: LoadedConfig, next: LoadedConfig): Diagnostic[] {
  const known = new Set(current.diagnostics.map(key));
  return next.diagnostics.filter((d) => !known.has(key(d)));
}

export type ReloadVerdict = { ok: true } | { ok: false; causes: readonly Diagnostic[] };

export function judgeReload(current: LoadedConfig, next: LoadedConfig): ReloadVerdict {
  if (next.fatal.length > 0) return { ok: false, causes: next.fatal };
  // A tenant's problem is that tenant's: it keeps its last good state (tenant-carry.ts), and the
  // reload goes on for everyone else.
  const causes = newDiagnostics(current, next).filter(
    (d) => d.severity === 'error' && d.tenant === undefined,
  );
  for (const f of next.policyFailures) {
    if (current.policyFailures.includes(f)) continue;
    // Usually an error above already says why; a policy file with a skipped entry only warns.
    causes.push({ severity: 'error', file: '<policy>', path: '', message: f, skipped: true });
  }
  return causes.length === 0 ? { ok: true } : { ok: false, causes };
}

export function refusalReason(causes: readonly Diagnostic[], generation: number): string {
  const more = causes.length > 1 ? ` (and ${causes.length - 1} more)` : '';
  return `reload refused, generation ${generation} stays in force: ${formatDiagnostic(causes[0]!)}${more}`;
}

/** Limits the pool was built with: a reload cannot change them. */
const POOL_LIMITS = [
  'maxConcurrentCommands',
  'killGraceMs',
  'jsThreads',
  'jsHeapCeilingBytes',
  'jsBackstopGraceMs',
  'fairShareIdleMs',
  'tenantMaxQueued',
] as const satisfies readonly (keyof Limits)[];

/** Warnings for pool limits that this reload changed (they apply to a new executor only). */
export function poolLimitWarnings(built: Limits, previous: Limits, next: Limits): Diagnostic[] {
  return POOL_LIMITS.filter((k) => next[k] !== previous[k] && next[k] !== built[k]).map((k) => ({
    severity: 'warning',
    file: '<reload>',
    path: `limits.${k}`,
    message: `changed from ${built[k]} to ${next[k]}: the pool keeps ${built[k]} until the executor is created again`,
    skipped: false,
  }));
}
