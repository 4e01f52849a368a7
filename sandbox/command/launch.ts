// What the subprocess runner asks of a launcher, and what it hears back. A launcher starts the
// process a LaunchSpec describes — through the spawn server (spawn-server.ts) or, where that was not
// built, with child_process.spawn through an rlimit wrapper (node-launcher.ts) — and reports its
// life as events. The runner (supervise.ts) keeps the deadline, the output caps and the kills, the
// same for both: the command lane does not know which one it uses.
import type { MountOp } from './namespace-plan.js';

/** The hook's rlimits, resolved (a CPU limit of 0 is already the deadline's). */
export interface LaunchLimits {
  readonly cpuSeconds: number;
  readonly openFiles: number;
  readonly fileSizeBytes: number;
  readonly addressSpaceBytes: number | undefined;
}

/**
 * Contained process mode (docs/security.md): `prefer` where the host allows it, else uncontained and
 * said so; `require` never without it (the hook fails with isolation_unavailable); `off` not asked.
 */
export type Containment = 'off' | 'prefer' | 'require';

/** The rlimits a launcher lowered to the host's hard limits: what applied instead. */
export type ClampedLimits = Partial<Record<keyof LaunchLimits, number>>;

/** The process cap a started process got (spawn-cap.h): how, and at most how many. */
export interface ProcessCap {
  readonly mechanism: 'pids-cgroup' | 'pid-namespace' | 'rlimit-nproc' | 'none';
  readonly max?: number;
}

/** What the launcher knows once a process started: its containment, and limits it had to lower. */
export interface StartFacts {
  readonly contained: boolean;
  /** Why a process that asked for containment runs without it. */
  readonly uncontained?: string;
  readonly clamped?: ClampedLimits;
  /** Its process cap (the spawn server says; the Node spawn path has none). */
  readonly processCap?: ProcessCap;
  /** The Landlock ABI it is restricted under (absent: none). */
  readonly landlock?: number;
}

/** One process to start, in its own session and process group. */
export interface LaunchSpec {
  /** What is executed once the limits apply: the hook's program, or `bwrap … -- program`. */
  readonly argv: readonly string[];
  /** Its whole environment; undefined: an empty one (bubblewrap reads the hook's on fd 3). */
  readonly env: Readonly<Record<string, string>> | undefined;
  /** What the program reads on fd 3 (bubblewrap's `--args 3`), if anything. */
  readonly fd3: Buffer | undefined;
  readonly cwd: string;
  readonly limits: LaunchLimits;
  /** Run as this uid/gid (the host's `nobody`). */
  readonly runAs: { readonly uid: number; readonly gid: number } | undefined;
  /** Written to its stdin, then closed; never blocks the host. */
  readonly stdin: string;
  /** Per stream: a launcher may stop relaying a stream past this many bytes (plus one). */
  readonly maxOutputBytes: number;
  /** New user, PID, mount and IPC namespaces with a /proc of its own (process mode). */
  readonly contain: Containment;
  /** Drop every capability before the exec (process mode; bubblewrap drops its own). */
  readonly dropCapabilities: boolean;
  /** At most this many processes and threads at once (0: no cap asked). */
  readonly maxProcesses: number;
  /**
   * Namespace mode, built by the spawn server: whose network namespace (two keys never share one),
   * and the mount plan (namespace-plan.ts). `cwd` and `argv` are then as the sandbox sees them.
   */
  readonly namespace?: { readonly key: string; readonly ops: readonly MountOp[] };
}

/** How the server that started a hook ended (spawn_server_lost). */
export interface LostServer {
  readonly pid: number | undefined;
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** A started process's life, in order: started, then output, closed and exited in any order. */
export interface LaunchEvents {
  /** The process exists: its pid, which is also its process group. */
  started(pid: number, facts: StartFacts): void;
  output(stream: 'stdout' | 'stderr', chunk: Buffer): void;
  /** A stream reached its end (or the launcher stopped relaying it). */
  closed(stream: 'stdout' | 'stderr'): void;
  exited(code: number | null, signal: string | null): void;
  /** It never started (`isolation_unavailable`: the containment it requires is not to be had). */
  failed(message: string, kind?: 'spawn_failed' | 'isolation_unavailable'): void;
  /** The spawn server died: nothing more will be heard of this process. */
  lost(message: string, server: LostServer): void;
}

export interface LaunchHandle {
  /** The runner is done with the process: stop relaying, close its pipes. */
  release(): void;
}

export interface Launcher {
  readonly kind: 'spawn-server' | 'node-spawn';
  /**
   * Whether process-mode hooks can be contained here, and why not: known once the launcher has
   * started its machinery (the spawn server checks at start), undefined before.
   */
  readonly containment: { readonly available: boolean; readonly reason: string } | undefined;
  start(spec: LaunchSpec, events: LaunchEvents): LaunchHandle;
  /** Stops what it owns (the spawn server); started processes are the runner's to kill. */
  close(): Promise<void>;
}
