// The Node spawn path (the fallback where the spawn server was not built): child_process.spawn on
// the calling thread, through an rlimit wrapper (wrapper.ts), detached (its own session and process
// group), with an empty environment. Each start forks the whole Node process: about a millisecond
// of blocked main thread, more under load (docs/spawning.md). Spawned from the main thread:
// PDEATHSIG-style cleanup is per thread.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import type { LaunchEvents, Launcher, LaunchHandle, LaunchSpec } from './launch.js';
import { closedToNobody } from './nobody-access.js';
import { NOBODY } from './process-profile.js';
import { type Wrapper, wrappedLaunch } from './wrapper.js';

const NOTHING: LaunchHandle = { release() {} };

/** Why hooks started here are not contained: only the spawn server makes namespaces. */
export const NODE_SPAWN_UNCONTAINED =
  'hooks started through Node (not the spawn server) are not contained; the spawn server does that';

export class NodeSpawnLauncher implements Launcher {
  readonly kind = 'node-spawn';
  readonly wrapper: Wrapper | null;
  readonly containment: { readonly available: false; readonly reason: string };
  /** Why hooks start through Node here (HOOKWARDEN_SPAWN_SERVER=off, a missing build), for messages. */
  readonly #why: string;

  constructor(wrapper: Wrapper | null, why?: string) {
    this.wrapper = wrapper;
    this.#why = why === undefined ? NODE_SPAWN_UNCONTAINED : `${NODE_SPAWN_UNCONTAINED} (here: ${why})`;
    this.containment = { available: false, reason: this.#why };
  }

  start(spec: LaunchSpec, events: LaunchEvents): LaunchHandle {
    if (spec.contain === 'require') {
      events.failed(`cannot contain the hook: ${this.#why}`, 'isolation_unavailable');
      return NOTHING;
    }
    if (this.wrapper === null) {
      events.failed(
        'neither the hw-exec helper (npm run build) nor prlimit(1) (apt-get install util-linux) is available to apply rlimits',
      );
      return NOTHING;
    }
    // Started as nobody, the wrapper itself must be reachable by nobody: a checkout under a 0700
    // directory (/root, mktemp -d) is not, and the spawn would fail with a bare EACCES.
    const closed =
      spec.runAs?.uid === NOBODY && this.wrapper.kind === 'hw-exec'
        ? closedToNobody(dirname(this.wrapper.path))
        : undefined;
    if (closed !== undefined) {
      events.failed(
        `cannot start the hook as nobody: the hw-exec helper ${this.wrapper.path} is inside ${closed.dir} (mode ${closed.mode.toString(8)}), which nobody cannot enter. Let the spawn server start hooks (it switches to nobody itself; see hookwarden doctor), or install hookwarden where every user can enter. The hook was not run.`,
      );
      return NOTHING;
    }
    const { argv, fd3 } = wrappedLaunch(spec, this.wrapper);
    let child: ChildProcessWithoutNullStreams;
    try {
      child = spawn(argv[0]!, argv.slice(1), {
        cwd: spec.cwd,
        // The wrapper, prlimit and bwrap run before any sandbox exists: nothing of the hook's reaches them.
        env: {},
        detached: true,
        stdio: fd3 === undefined ? 'pipe' : ['pipe', 'pipe', 'pipe', 'pipe'],
        ...(spec.runAs ?? {}),
      }) as ChildProcessWithoutNullStreams;
    } catch (err) {
      events.failed(`cannot start the hook: ${(err as Error).message}`);
      return NOTHING;
    }
    const side = fd3 === undefined ? undefined : (child.stdio[3] as Writable);
    if (child.pid !== undefined)
      events.started(
        child.pid,
        spec.contain === 'off' ? { contained: false } : { contained: false, uncontained: this.#why },
      );
    child.on('error', (err) => {
      // Only a failed spawn leaves no pid; later errors (e.g. a failed kill) change nothing here.
      if (child.pid === undefined) events.failed(`cannot start the hook: ${err.message}`);
    });
    child.stdout.on('data', (chunk: Buffer) => events.output('stdout', chunk));
    child.stderr.on('data', (chunk: Buffer) => events.output('stderr', chunk));
    child.stdout.on('close', () => events.closed('stdout'));
    child.stderr.on('close', () => events.closed('stderr'));
    child.on('exit', (code, signal) => events.exited(code, signal));
    // A hook may never read stdin: the write is asynchronous and EPIPE is ignored.
    child.stdin.on('error', () => {});
    child.stdin.end(spec.stdin);
    // The environment (or bwrap's --args) on fd 3: read to EOF and closed before the hook starts. A
    // wrapper that fails first leaves it unread (EPIPE, ignored); its exit status says why.
    side?.on('error', () => {});
    side?.end(fd3);
    return {
      release() {
        child.stdout.destroy();
        child.stderr.destroy();
        child.stdin.destroy();
        side?.destroy();
      },
    };
  }

  async close(): Promise<void> {}
}
