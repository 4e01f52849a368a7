// What the host hands the subprocess runner (sandbox/command). Plain data, dependency-free.

export interface CommandRlimits {
  readonly cpuSeconds: number;
  readonly openFiles: number;
  readonly fileSizeBytes: number;
  readonly addressSpaceBytes: number | undefined;
}

export interface CommandTask {
  readonly program:
    | {
        readonly kind: 'shell';
        readonly command: string;
        /**
         * The shell that runs `command` and its options, before the command: absent `/bin/sh -c`
         * (hookwarden's dialect); `['/bin/bash', '-c']` for Claude Code files; PowerShell's for
         * `shell: "powershell"`. Resolved on the host (an absolute path).
         */
        readonly interpreter?: readonly string[];
      }
    | { readonly kind: 'argv'; readonly argv: readonly string[] };
  /** Working directory: the sandbox root. */
  readonly cwd: string;
  /** Per-invocation scratch directory: HOME and TMPDIR point here. */
  readonly scratchDir: string;
  /** Variables set by hookwarden (HOOK_EVENT, …) plus the hook's explicit `env`. */
  readonly env: Readonly<Record<string, string>>;
  /** Host variable names to pass through (the secret-name filter is applied again at spawn). */
  readonly inheritEnv: readonly string[];
  /**
   * Where `inheritEnv` and the host `HOME` are read from: the environment of the process the dispatch
   * answers for (a daemon's caller). Default: this process's.
   */
  readonly hostEnv?: Readonly<Record<string, string | undefined>>;
  /**
   * Process mode only: HOME is the host's (a Claude Code hook's git config, `gh` auth, ~/.local/bin)
   * rather than the scratch directory. TMPDIR stays the scratch directory.
   */
  readonly hostHome?: boolean;
  /**
   * Claude Code's CLAUDE_ENV_FILE: the hook gets a file in its scratch directory to write `export`
   * lines to; what it wrote comes back as the outcome's `envFileText`.
   */
  readonly envFile?: boolean;
  /** Bytes written to stdin (the HookInput JSON). */
  readonly stdin: string;
  readonly deadlineMs: number;
  /** SIGTERM → SIGKILL grace for the process group. */
  readonly killGraceMs: number;
  /** Cap per stream; past it the hook is an `output_limit` failure. */
  readonly maxOutputBytes: number;
  readonly rlimits: CommandRlimits;
  /** `process` (own process group, rlimits) or `namespace` (a sandbox of its own, on top of that). */
  readonly isolation: 'process' | 'namespace';
  /**
   * Process mode: its own user, PID, mount and IPC namespaces and /proc (contained) where the host
   * allows it, else uncontained and said so (`prefer`), or never without them (`require`: the hook
   * fails with isolation_unavailable). Namespace mode ignores it (bubblewrap contains more).
   */
  readonly containment: 'prefer' | 'require';
  /** Namespace mode: mount the sandbox root read-write. */
  readonly writable: boolean;
  /**
   * Namespace mode: whose network namespace the hook shares (a tenant's hooks one, never another
   * tenant's). Default: the executor's own ('').
   */
  readonly sandboxKey?: string;
  /**
   * Namespace mode: nothing of the host's layout inside (a tenant's own hooks): the root at /project,
   * a pack at /pack, and the variables and arguments that named host paths name those.
   */
  readonly hidePaths?: boolean;
  /** At most this many processes and threads at once (default DEFAULT_MAX_PROCESSES). */
  readonly maxProcesses?: number;
  /** Run as the unprivileged host user `nobody` (needs hookwarden to run as root). */
  readonly runAs: 'nobody' | undefined;
  /** Namespace mode: the directory mounted as /etc (a snapshot of harmless entries). */
  readonly etcDir?: string;
  /**
   * The policy pack the hook belongs to (absolute, verified): namespace mode mounts it read-only at
   * the same path, since its scripts usually live outside the sandbox root.
   */
  readonly packDir?: string;
}

/** The rlimits, by their CommandRlimits names. */
export type RlimitName = keyof CommandRlimits;

/** A hook's cap on processes and threads, unless it asks for another. */
export const DEFAULT_MAX_PROCESSES = 256;

/** The containment a started command hook can get (SandboxFacts.containment). */
export const CONTAINMENTS = ['contained', 'uncontained', 'namespace'] as const;

/** What a started command hook actually got: its record says so. */
export interface SandboxFacts {
  /**
   * `contained`: process mode in namespaces of its own; `uncontained`: process mode beside the host
   * (the host refused the namespaces, or containment was turned off); `namespace`: bubblewrap.
   */
  readonly containment: (typeof CONTAINMENTS)[number];
  /** Why a process-mode hook runs uncontained. */
  readonly uncontainedReason?: string;
  /** Rlimits lowered to the host's hard limits: the value that applied instead of the one asked. */
  readonly clampedLimits?: Partial<Record<RlimitName, number>>;
  /** Its cap on processes and threads: the mechanism in force, and the bound. */
  readonly processCap?: {
    readonly mechanism: 'pids-cgroup' | 'pid-namespace' | 'rlimit-nproc' | 'none';
    readonly max?: number;
  };
  /** The Landlock ABI it was restricted under, where the kernel has Landlock. */
  readonly landlock?: number;
  /** hookwarden's sandbox knobs set in the environment when it ran (`NAME=value`). */
  readonly knobs?: readonly string[];
}

/** Outcomes of a hook that started carry what it got. */
interface Started {
  readonly sandbox?: SandboxFacts;
}

/** How a command hook run ended, before the protocol (exit 2 = deny, …) is applied. */
export type CommandOutcome = Started &
  (
    | {
        readonly kind: 'exited';
        readonly exitCode: number | null;
        readonly signal: string | null;
        readonly stdout: string;
        readonly stderr: string;
        readonly durationMs: number;
        /** What the hook wrote to CLAUDE_ENV_FILE (with `envFile`; at most ENV_FILE_MAX_BYTES). */
        readonly envFileText?: string;
        /** The CLAUDE_ENV_FILE was larger than ENV_FILE_MAX_BYTES: `envFileText` is its head. */
        readonly envFileTruncated?: boolean;
        /** Of `durationMs`, the time `spawn()` took (fork/exec of the launcher), for bench's stage split. */
        readonly spawnMs?: number;
      }
    | {
        readonly kind: 'timeout' | 'aborted' | 'spawn_failed' | 'isolation_unavailable';
        readonly message: string;
        readonly stderr: string;
        readonly durationMs: number;
      }
    | {
        readonly kind: 'output_limit';
        readonly message: string;
        readonly stderr: string;
        readonly durationMs: number;
        /** The cap each stream had. */
        readonly limitBytes: number;
      }
    | {
        /** The spawn server that started the hook died under it; the hook's process group was killed. */
        readonly kind: 'spawn_server_lost';
        readonly message: string;
        readonly stderr: string;
        readonly durationMs: number;
        readonly server: {
          readonly pid: number | undefined;
          readonly exitCode: number | null;
          readonly signal: string | null;
        };
      }
  );

/** The name of CLAUDE_ENV_FILE in the hook's scratch directory. */
export const ENV_FILE_NAME = 'claude-env.sh';
/** At most this much of CLAUDE_ENV_FILE is read back. */
export const ENV_FILE_MAX_BYTES = 64 * 1024;
