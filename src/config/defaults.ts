// Every default in one frozen constant (pinned by test/config/defaults.test.ts).
import { DIALECT_RULES } from '../contract/dialects.js';
import type { TextCaps } from '../contract/text-caps.js';

const MiB = 1024 * 1024;

export const DEFAULTS = Object.freeze({
  js: Object.freeze({
    timeoutMs: 5_000,
    /** A JS hook may not ask for more without a declared budget. */
    maxTimeoutMs: 30_000,
    memoryBytes: 32 * MiB,
    maxOutputBytes: 64 * 1024,
    /** Hard ceiling of maxOutputBytes for JS hooks. */
    maxOutputBytesCeiling: MiB,
    /** console.* capture per invocation: lines kept, bytes per line, bytes in all. */
    maxLogLines: 100,
    maxLogLineBytes: 4096,
    maxLogBytes: 16 * 1024,
  }),
  /** WebAssembly hooks (docs/wasm.md). */
  wasm: Object.freeze({
    timeoutMs: 5_000,
    /** A wasm hook may not ask for more without a declared budget. */
    maxTimeoutMs: 30_000,
    /** The memory cap of a hook that sets no memoryBytes (limits.maxWasmMemoryBytes bounds it). */
    memoryBytes: 32 * MiB,
    /** Per stream (stdout and stderr each), as a command hook's. */
    maxOutputBytes: MiB,
    /** Hard ceiling of maxOutputBytes for wasm hooks (the output is held in memory). */
    maxOutputBytesCeiling: 16 * MiB,
    /** Largest module file accepted. */
    maxModuleBytes: 16 * MiB,
  }),
  command: Object.freeze({
    /** hookwarden's own files; Claude Code and FreeCode files have their own (contract/dialects.ts). */
    timeoutMs: DIALECT_RULES.hookwarden.defaultTimeoutMs,
    /** Per stream (stdout and stderr each). */
    maxOutputBytes: MiB,
    openFiles: 1024,
    fileSizeBytes: 64 * MiB,
    /** Fixed PATH of every command hook. */
    path: '/usr/local/bin:/usr/bin:/bin',
  }),
  // An http hook's default timeout is its dialect's, as a command hook's (contract/dialects.ts).
  http: Object.freeze({
    /** Largest response body read. */
    maxOutputBytes: MiB,
    /** Hard ceiling of maxOutputBytes for http hooks (the body is held in memory). */
    maxOutputBytesCeiling: 16 * MiB,
  }),
  /** Prompt and agent hooks (Claude Code's defaults). */
  evaluator: Object.freeze({
    promptTimeoutMs: 30_000,
    agentTimeoutMs: 60_000,
  }),
  budget: Object.freeze({
    /** Added to a declared budget that widens the deadline. */
    graceMs: 5_000,
  }),
  limits: Object.freeze({
    maxHookCalls: 128,
    maxDeclaredBudgetMs: 600_000,
    maxConcurrentCommands: 16,
    maxInputBytes: 8 * MiB,
    /** Deepest nesting of a HookInput (checked without recursion before anything else). */
    maxInputDepth: 64,
    killGraceMs: 500,
    /** QuickJS worker threads; 0 = one per available CPU. */
    jsThreads: 0,
    /** Hard cap of each QuickJS worker's heap (a fixed-maximum WebAssembly.Memory). */
    jsHeapCeilingBytes: 128 * MiB,
    /** The largest memory cap (memoryBytes) a wasm hook may have. */
    maxWasmMemoryBytes: 256 * MiB,
    /** A JS task that overruns its deadlines by this much has its worker thread terminated. */
    jsBackstopGraceMs: 1_000,
    /** Async hooks of one tenant queued or running at once; past it one is recorded queue_full. */
    maxAsyncQueued: 1_000,
    /**
     * Fair share of the command and QuickJS lanes while several tenants have work: a tenant's reserve
     * (its share, no more than it recently used) outlives its last work this long; 0 = rotation only.
     */
    fairShareIdleMs: 1_000,
    /** Hooks of one tenant waiting per lane when its limits set no maxQueued; past it queue_full (serve: 429). 0 = unbounded. */
    tenantMaxQueued: 256,
    /** Dispatches a tenant may make above `tenantRatePerSec`, per burst window. */
    tenantRateBurst: 0,
  }),
  /** Async hooks (docs/scaling.md). */
  async: Object.freeze({
    /** A failed async hook is tried again this many times (hook field `retries`). */
    retries: 0,
    /** First wait before a retry (hook field `retryBackoffMs`). */
    retryBackoffMs: 1_000,
    /** Async hooks one executor (replica) runs at once; the rest wait in the queue. */
    concurrency: 8,
    /** Completion and rewake events kept per tenant for `Last-Event-ID` resumption. */
    replayEvents: 1_000,
    /**
     * Redis mode: a job whose replica stopped renewing its lock this long goes to another replica.
     * Renewed every half of it (one call per replica for all its jobs), and looked for every half
     * of it: a dead replica's jobs run elsewhere within 1.5× this (bench/async-failover.ts).
     */
    lockDurationMs: 5_000,
    /** Redis mode: a job no replica with its hook's spec took within this fails `config_mismatch`. */
    mismatchTimeoutMs: 60_000,
    /** Redis mode: a replica whose configuration lacks a job's spec hands it back after this. */
    mismatchRetryMs: 250,
    /** Window of `tenantRateBurst`: the burst is available again this long after it was used. */
    burstWindowMs: 10_000,
  }),
  /** The QuickJS and wasm lanes' Piscina pools. */
  piscina: Object.freeze({
    /** Idle workers stay warm this long (a new one costs ~50 ms to load QuickJS). */
    idleTimeoutMs: 60_000,
    /** V8 heap of a worker (QuickJS's own heap is a WebAssembly.Memory outside it). */
    maxOldGenerationSizeMb: 256,
    /**
     * A worker's young generation: its garbage per call is small and short-lived, and V8 would grow it
     * to ~30 MB per worker under load (measured: no cost in CPU per dispatch at 4 MB).
     */
    maxYoungGenerationSizeMb: 4,
    /** A worker's V8 stack; QuickJS's maximum stack is set at a quarter of it (field notes, trap 2). */
    stackSizeMb: 4,
  }),
  /** Claude Code `timeout` (seconds) above this probably was meant as milliseconds. */
  suspiciousTimeoutSeconds: 600,
  /**
   * Cap (UTF-8 bytes) of every reason and error message a hook of any type puts into its record or the
   * verdict: an answer's `reason`, stderr used as a deny reason, a JS error's name + message + location.
   */
  maxReasonBytes: 4096,
  /** Most unknown field names listed in a record's `ignoredFields` (each cut to 128 bytes). */
  maxIgnoredFields: 32,
});

/** The caps on hook-controlled text, from DEFAULTS (sent to QuickJS workers with each task). */
export const TEXT_CAPS: TextCaps = Object.freeze({
  maxMessageBytes: DEFAULTS.maxReasonBytes,
  maxLogLines: DEFAULTS.js.maxLogLines,
  maxLogLineBytes: DEFAULTS.js.maxLogLineBytes,
  maxLogBytes: DEFAULTS.js.maxLogBytes,
  maxIgnoredFields: DEFAULTS.maxIgnoredFields,
});

export const LIMIT_BOUNDS = Object.freeze({
  maxHookCalls: 4_096,
  maxConcurrentCommands: 1_024,
  /** Deeper inputs would reach recursive code (structured clone, QuickJS's JSON) near its limits. */
  maxInputDepth: 512,
  killGraceMs: 60_000,
  jsThreads: 64,
  jsBackstopGraceMs: 60_000,
  maxAsyncQueued: 1_000_000,
  fairShareIdleMs: 600_000,
  tenantMaxQueued: 1_000_000,
  tenantRatePerSec: 1_000_000,
  tenantRateBurst: 1_000_000,
  /** Async hooks: retries of one run, and the first wait before a retry (a day). */
  retries: 100,
  retryBackoffMs: 86_400_000,
  /** WebAssembly memory32 cannot exceed 4 GiB. */
  jsHeapCeilingBytes: 4 * 1024 * MiB,
  maxWasmMemoryBytes: 4 * 1024 * MiB,
});

export type Limits = {
  readonly maxHookCalls: number;
  readonly maxDeclaredBudgetMs: number;
  readonly maxConcurrentCommands: number;
  readonly maxInputBytes: number;
  readonly maxInputDepth: number;
  readonly killGraceMs: number;
  readonly jsThreads: number;
  readonly jsHeapCeilingBytes: number;
  /** The largest memory cap a wasm hook may have (its memoryBytes is clamped to it). */
  readonly maxWasmMemoryBytes: number;
  readonly jsBackstopGraceMs: number;
  /** Async hooks of one tenant queued or running at once (queue_full past it). */
  readonly maxAsyncQueued: number;
  /** A tenant's fair-share reserve outlives its last work this long (ms); 0 = rotation only. */
  readonly fairShareIdleMs: number;
  /** A tenant's hooks waiting per lane when its limits set no maxQueued; 0 = unbounded. */
  readonly tenantMaxQueued: number;
  /** Dispatches per second per tenant (every replica together in Redis mode); unset: no limit. */
  readonly tenantRatePerSec?: number;
  /** Dispatches above the rate allowed per burst window (10 s). */
  readonly tenantRateBurst: number;
  /** Least isolation of command hooks, for every scope or per scope. */
  readonly minIsolation?: IsolationLevel | Partial<Record<'policy' | 'project' | 'user', IsolationLevel>>;
};

/**
 * Command hook isolation, least to most: `process` (contained where the host allows it, else
 * uncontained and said so), `contained` (process mode, never uncontained: fails closed where the host
 * refuses the namespaces), `namespace` (bubblewrap). docs/security.md.
 */
export const ISOLATION_LEVELS = ['process', 'contained', 'namespace'] as const;
export type IsolationLevel = (typeof ISOLATION_LEVELS)[number];

/** The stronger of two isolation levels (ISOLATION_LEVELS order: a floor only raises). */
export const strongerIsolation = (a: IsolationLevel, b: IsolationLevel): IsolationLevel =>
  ISOLATION_LEVELS.indexOf(b) > ISOLATION_LEVELS.indexOf(a) ? b : a;
