// Kills a hook's whole process group: SIGTERM, then SIGKILL after a grace period. Each pool owns a
// ProcessGroups that tracks every group that may still have members, so close() — and, for all
// pools at once, process exit — can SIGKILL whatever is left.

const allTrackers = new Set<ProcessGroups>();
let exitHookInstalled = false;

function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  // An empty group makes process.kill throw ESRCH, the common case after a hook exits; capturing a
  // stack trace for it costs more than the kill, so none is captured.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (err) {
    // ESRCH: the group is empty. EPERM: members changed uid (runAs); still treat them as present.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  } finally {
    Error.stackTraceLimit = limit;
  }
}

function killEverything(): void {
  for (const t of allTrackers) t.killAll();
}

export class ProcessGroups {
  readonly #live = new Map<number, NodeJS.Timeout | undefined>();
  #disposed = false;

  constructor() {
    allTrackers.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      // Synchronous: runs on normal exit, process.exit() and after an uncaught exception.
      process.on('exit', killEverything);
    }
  }

  /** Starts tracking a group (right after spawn). */
  track(pgid: number): void {
    if (this.#disposed) {
      signalGroup(pgid, 'SIGKILL');
      return;
    }
    if (!this.#live.has(pgid)) this.#live.set(pgid, undefined);
  }

  /**
   * SIGTERM to the group, SIGKILL after `graceMs` if anything is left. Returns whether the group had
   * members. Idempotent: a group already being killed is left to its timer.
   */
  kill(pgid: number, graceMs: number): boolean {
    if (this.#disposed) return signalGroup(pgid, 'SIGKILL');
    if (this.#live.get(pgid) !== undefined) return true;
    if (!signalGroup(pgid, 'SIGTERM')) {
      this.#live.delete(pgid);
      return false;
    }
    const timer = setTimeout(() => {
      signalGroup(pgid, 'SIGKILL');
      this.#live.delete(pgid);
    }, graceMs);
    timer.unref();
    this.#live.set(pgid, timer);
    return true;
  }

  /** SIGKILL to every tracked group at once. */
  killAll(): void {
    for (const [pgid, timer] of this.#live) {
      if (timer !== undefined) clearTimeout(timer);
      signalGroup(pgid, 'SIGKILL');
    }
    this.#live.clear();
  }

  /** Groups that may still have members. */
  live(): number[] {
    return [...this.#live.keys()];
  }

  /** Kills what is left and stops tracking (the pool is closing). */
  dispose(): void {
    this.#disposed = true;
    this.killAll();
    allTrackers.delete(this);
  }
}
