// The command lane: every command hook's run. It waits for its tenant's turn (at most
// `maxConcurrentCommands` processes at once), prepares a per-invocation scratch directory (HOME and
// TMPDIR; an /etc snapshot for namespace hooks), starts the process through the subprocess runner
// and the lane's launcher (the spawn server, started on the first hook, or Node's spawn where it was
// not built), tracks its process group, and cleans up. close() kills every group, stops the spawn
// server and removes the scratch root.
import { ProcessGroups } from '../../sandbox/command/kill-group.js';
import { knobsInUse } from '../../sandbox/command/knobs.js';
import type { Launcher } from '../../sandbox/command/launch.js';
import { containmentSetting, createLauncher, namespaceSetting } from '../../sandbox/command/launcher.js';
import { type NamespaceSupport, namespaceSupport } from '../../sandbox/command/namespace-profile.js';
import { runCommand, type SandboxSettings } from '../../sandbox/command/run-command.js';
import type { CommandOutcome, CommandTask } from '../contract/command-task.js';
import { hookError } from '../contract/error-codes.js';
import { guardHostProcess } from '../native/host-guard.js';
import { type LaneLoad, type LaneResult, type LaneRunOptions, type QueuedLane, refusal } from './lane.js';
import { LinkedAbort } from './linked-abort.js';
import { ScratchDirs } from './scratch.js';
import type { TenantLimits } from './tenant-queues.js';
import { type LaneScheduling, Turns } from './turns.js';

/**
 * What a dispatch hands the command lane: the task without the lane's own parts. `tenantWritable`:
 * the hook is its tenant's and was granted `writable`, so the lane gives it the tenant's own folder.
 */
export type CommandRequest = Omit<CommandTask, 'scratchDir' | 'killGraceMs' | 'writableDir'> & {
  readonly tenantWritable?: boolean;
};

export interface CommandLaneOptions {
  readonly maxConcurrent: number;
  readonly killGraceMs: number;
  readonly tenantLimits?: ((tenant: string) => TenantLimits) | undefined;
  /** Fair share and default queue bound across tenants. */
  readonly scheduling?: LaneScheduling | undefined;
  /** Directory under which per-invocation scratch dirs are made (default: a tmpfs if available). */
  readonly scratchBase?: string | undefined;
}

/** The sandbox knobs as they are now (read when a lane is made, like the launcher's choice). */
function sandboxSettings(): SandboxSettings {
  const builder = namespaceSetting();
  let namespace: NamespaceSupport | undefined;
  return {
    containmentOff: containmentSetting(),
    knobs: knobsInUse(),
    get namespace() {
      namespace ??= namespaceSupport(builder);
      return namespace;
    },
  };
}

export class CommandLane implements QueuedLane<CommandRequest, CommandOutcome> {
  readonly #options: CommandLaneOptions;
  readonly #closing: AbortSignal;
  readonly #turns: Turns;
  readonly #scratch: ScratchDirs;
  readonly #groups = new ProcessGroups();
  readonly #running = new Set<Promise<unknown>>();
  readonly #launcher: Launcher = createLauncher();
  /** The operator's knobs, read now; namespace support is checked on the first namespace hook. */
  readonly #settings: SandboxSettings = sandboxSettings();

  constructor(options: CommandLaneOptions, closing: AbortSignal) {
    // Before any hook can look at this process (host-guard.ts).
    guardHostProcess();
    this.#options = options;
    this.#closing = closing;
    this.#turns = new Turns(options.maxConcurrent, options.tenantLimits, options.scheduling);
    this.#scratch = new ScratchDirs(options.scratchBase);
  }

  /** Process groups that may still have members (leak checks). */
  liveProcessGroups(): number[] {
    return this.#groups.live();
  }

  /** Process slots, slots in use, and each tenant's hooks waiting and running (metrics). */
  load(): LaneLoad {
    return { capacity: this.#turns.capacity, busy: this.#turns.running, tenants: this.#turns.counts() };
  }

  async run(request: CommandRequest, options: LaneRunOptions = {}): Promise<LaneResult<CommandOutcome>> {
    const { signal, onStart } = options;
    const tenant = options.tenant ?? '';
    const queuedAt = performance.now();
    const turn = this.#closing.aborted ? 'closed' : await this.#turns.acquire(tenant, signal);
    const queuedMs = performance.now() - queuedAt;
    if (turn === 'closed') return refusal('pool_closed', queuedMs);
    if (turn === 'aborted') return refusal('aborted', queuedMs);
    if (turn === 'queue_full') {
      const message = `tenant "${tenant}" has its maximum of hooks queued (maxQueued); the hook was not run`;
      return refusal(hookError('queue_full', message, { tenant }), queuedMs);
    }

    onStart?.();
    let ranMs = 0;
    const link = new LinkedAbort(signal, this.#closing);
    let scratchDir: string | undefined;
    const run = (async () => {
      scratchDir = this.#scratch.create(tenant);
      const etcDir =
        request.isolation === 'namespace' ? this.#scratch.etcSnapshot(request.hidePaths === true) : undefined;
      const { tenantWritable, ...task } = request;
      const writableDir = tenantWritable === true ? this.#scratch.tenantFolder(tenant) : undefined;
      return runCommand(
        {
          ...task,
          ...(writableDir === undefined
            ? {}
            : { writableDir, env: { ...task.env, HOOK_WRITABLE_DIR: writableDir } }),
          scratchDir,
          killGraceMs: this.#options.killGraceMs,
          ...(etcDir === undefined ? {} : { etcDir }),
        },
        this.#groups,
        link.signal,
        this.#launcher,
        this.#settings,
      );
    })();
    this.#running.add(run);
    try {
      const value = await run;
      ranMs = value.durationMs;
      if (value.kind === 'aborted' && this.#closing.aborted && !signal?.aborted)
        return refusal('pool_closed', queuedMs);
      return { ran: true, value, queuedMs };
    } finally {
      this.#running.delete(run);
      link.dispose();
      this.#turns.release(tenant, ranMs);
      if (scratchDir !== undefined) this.#scratch.remove(scratchDir);
    }
  }

  /** Refuses queued runs, waits for running ones (killed by the closing signal), cleans up. */
  async close(): Promise<void> {
    this.#turns.close();
    await Promise.allSettled([...this.#running]);
    this.#groups.dispose();
    await this.#launcher.close();
    await this.#scratch.close();
  }
}
