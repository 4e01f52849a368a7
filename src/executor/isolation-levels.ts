// The isolation levels a command hook can run at, and whether this host supports each: the one list
// `hookwarden doctor` and `bench --isolation all` read. Each level says how to make every command
// hook run at it (limits an executor is given: a floor, never a lowering of what a hook asks), so a
// new level is a new row here, not new code in its readers.
import { containmentFix, containmentSupport } from '../../sandbox/command/containment-support.js';
import { namespaceSupport } from '../../sandbox/command/namespace-profile.js';
import type { Limits } from '../config/defaults.js';

/** One isolation level and what this host says about it. */
export interface IsolationLevelInfo {
  /** The level's name, as configs and results spell it. */
  readonly level: string;
  /** Whether command hooks can run at this level here. */
  readonly available: boolean;
  /** What the level is, or why it is unavailable. */
  readonly detail: string;
  /** How to make an unavailable level available. */
  readonly fix?: string;
  /**
   * Executor limits that raise every command hook to this level (`minIsolation`, a floor: a hook
   * that asks for more keeps it).
   */
  readonly limits: Readonly<Partial<Limits>>;
}

interface LevelRow {
  readonly level: string;
  readonly limits: Readonly<Partial<Limits>>;
  readonly probe: () => { available: boolean; detail: string; fix?: string };
}

/** Every level, least contained first. */
const LEVELS: readonly LevelRow[] = [
  {
    level: 'process',
    limits: { minIsolation: 'process' },
    probe: () => ({
      available: true,
      detail: `a restricted subprocess: own process group, rlimits, no capabilities, an environment from an allow-list; ${containmentSupport().ok ? 'contained (its own user, PID, mount and IPC namespaces)' : 'uncontained here'}`,
    }),
  },
  {
    level: 'contained',
    limits: { minIsolation: 'contained' },
    probe: () => {
      const c = containmentSupport();
      return c.ok
        ? {
            available: true,
            detail: 'process mode in user, PID, mount and IPC namespaces of its own with a private /proc',
          }
        : { available: false, detail: c.reason ?? 'unavailable', fix: containmentFix(c.reason ?? '') };
    },
  },
  {
    level: 'namespace',
    limits: { minIsolation: 'namespace' },
    probe: () => {
      const ns = namespaceSupport();
      return ns.ok
        ? {
            available: true,
            detail:
              ns.builder === 'bwrap'
                ? `bubblewrap (${ns.bwrap}, HOOKWARDEN_NAMESPACE=bwrap): no network, read-only root, own pid, ipc and user namespaces, the process cap`
                : 'built by the spawn server: no network, a read-only minimal root, own pid, mount, ipc, uts, cgroup and user namespaces, the process cap',
          }
        : { available: false, detail: ns.reason ?? 'unavailable', ...(ns.hint ? { fix: ns.hint } : {}) };
    },
  },
];

/** The isolation levels, least contained first, each probed on this host (probes are cached). */
export function isolationLevels(): IsolationLevelInfo[] {
  return LEVELS.map((row) => Object.freeze({ level: row.level, limits: row.limits, ...row.probe() }));
}
