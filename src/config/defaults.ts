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
    /** A JS task that overruns its deadlines by this much has its worker thread terminated. */
    jsBackstopGraceMs: 1_000,
  }),
  /** The QuickJS lane's Piscina pool. */
  piscina: Object.freeze({
    /** Idle workers stay warm this long (a new one costs ~50 ms to load QuickJS). */
    idleTimeoutMs: 60_000,
    /** V8 heap of a worker (QuickJS's own heap is a WebAssembly.Memory outside it). */
    maxOldGenerationSizeMb: 256,
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
  /** WebAssembly memory32 cannot exceed 4 GiB. */
  jsHeapCeilingBytes: 4 * 1024 * MiB,
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
  readonly jsBackstopGraceMs: number;
  /** Least isolation of command hooks, for every scope or per scope. */
  readonly minIsolation?: IsolationLevel | Partial<Record<'policy' | 'project' | 'user', IsolationLevel>>;
};

export type IsolationLevel = 'process' | 'namespace';
