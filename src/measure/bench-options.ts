// runBench options: validated once, at the boundary, into a frozen, fully-defaulted form.
import { z } from 'zod';
import { optionKeys, refuseUnknownOptions } from '../config/option-keys.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { renderValue } from '../contract/messages.js';
import type { DispatchInput } from '../contract/types.js';
import type { ExecutorOptions } from '../executor/options.js';

/** Defaults of `runBench` / `hookwarden bench` (pinned by a test). */
export const BENCH_DEFAULTS = Object.freeze({
  iterations: 1000,
  concurrency: 1,
  tenants: 1,
  warmup: 10,
  /** Baseline samples per baseline: as many as dispatches, within these bounds. */
  minBaselineSamples: 20,
  maxBaselineSamples: 200,
  /** Dispatch blocks the run is cut into, with a baseline block before each (fewer for tiny runs). */
  blocks: 20,
  /**
   * Tool calls per session the session cost is given at (besides the recorded mix): the median and
   * 90th percentile counted over 102 real Claude Code transcripts (docs/bench.md#the-session-cost).
   */
  toolCallsPerSession: Object.freeze({ p50: 69, p90: 423 }),
});

export interface BenchOptions
  extends Pick<
    ExecutorOptions,
    'config' | 'policy' | 'root' | 'limits' | 'onWarning' | 'scratchRoot' | 'allowedHttpHookUrls'
  > {
  /** Event to dispatch (name or alias); not with `replay`, whose lines name their events. */
  event?: string;
  /**
   * The input dispatched every time (`event` is filled in from `event`). Optional, like the CLI's
   * `--input`: missing `sessionId`, `cwd` and `timestamp` get dispatch's defaults. Default `{}`.
   */
  input?: DispatchInput;
  /** Measured dispatches. Default 1000. */
  iterations?: number;
  /** Dispatches in flight at once. Default 1. */
  concurrency?: number;
  /** Tenant labels t1…tN the dispatches are spread over, round-robin; 1 = no tenant label. Default 1. */
  tenants?: number;
  /** Unmeasured dispatches run first. Default 10. */
  warmup?: number;
  /** Samples of each baseline. Default: `iterations`, at least 20, at most 200. */
  baselineSamples?: number;
  /**
   * Blocks the run is cut into (a baseline block, then a dispatch block, each time); `bench compare`
   * tests the blocks' medians. Default 20; at most `iterations`.
   */
  blocks?: number;
  /**
   * Give every dispatch its own `timestamp`: the input's (or the run's start) plus the dispatch's
   * number in milliseconds. JS hooks' `Math.random` is seeded from the input, so a fixed input
   * means the same "random" path every time; this exercises the others. Default false.
   */
  varyInput?: boolean;
  /** Record only the input's digest in the result, not the input. Default false. */
  redactInput?: boolean;
  /** Called after each measured dispatch with (done, total). */
  onProgress?: (done: number, total: number) => void;
  /** Aborting stops the run: running hooks are killed and `runBench` rejects with the reason. */
  signal?: AbortSignal;
  /**
   * A running `hookwarden serve` (`http://HOST:PORT`) to dispatch to instead of an executor in this
   * process; needs `token`, and no `config`, `policy` or `tenants` (the server's and the token's apply).
   */
  url?: string;
  /** Bearer token for `url` (`hookwarden serve token`). */
  token?: string;
  /**
   * Replay a recorded session instead of one event: a JSON Lines file (or a directory of them), one
   * hook input per line naming its event, replayed in order (docs/bench.md#replaying-a-session).
   * Each pass replays every event; `iterations` is rounded up to whole passes.
   */
  replay?: string;
  /**
   * Tool calls per session to state the session cost at, besides the recorded mix, by label
   * (`{ p50: 69, p90: 423 }`, the default). Replay only.
   */
  toolCallsPerSession?: Readonly<Record<string, number>>;
  /**
   * Run the same hooks at several isolation levels, interleaved: `"all"` (every level the host
   * supports, from `isolationLevels()`) or a list of level names. Not with `url`.
   */
  isolation?: 'all' | readonly string[];
  /**
   * Called before each measured block (its baseline samples, then its dispatches); the block starts
   * when it resolves. `hookwarden bench ab` paces two runs with it, so that their blocks alternate.
   */
  pace?: () => void | Promise<void>;
}

/** Every key runBench takes (a typo such as `polcy` is refused, not ignored). */
const BENCH_OPTION_KEYS = optionKeys<BenchOptions>()([
  'config',
  'policy',
  'root',
  'limits',
  'onWarning',
  'scratchRoot',
  'allowedHttpHookUrls',
  'event',
  'input',
  'iterations',
  'concurrency',
  'tenants',
  'warmup',
  'baselineSamples',
  'blocks',
  'varyInput',
  'redactInput',
  'onProgress',
  'signal',
  'url',
  'token',
  'replay',
  'toolCallsPerSession',
  'isolation',
  'pace',
]);

const count = (min: number, max: number) =>
  z
    .number({ error: `expected an integer from ${min} to ${max}` })
    .int({ error: `expected an integer from ${min} to ${max}` })
    .min(min, { error: `expected an integer from ${min} to ${max}` })
    .max(max, { error: `expected an integer from ${min} to ${max}` });

const benchSchema = z.object({
  event: z.string({ error: 'expected an event name' }).min(1, { error: 'expected an event name' }).optional(),
  replay: z.string({ error: 'expected a file or directory path' }).min(1).optional(),
  toolCallsPerSession: z
    .record(z.string().min(1).max(40), count(0, 1_000_000_000), {
      error: 'expected { label: tool calls }, e.g. { "p50": 69, "p90": 423 }',
    })
    .refine((r) => Object.keys(r).length <= 20, { error: 'expected at most 20 labels' })
    .optional(),
  isolation: z
    .union([z.literal('all'), z.array(z.string().min(1)).min(1)], {
      error: 'expected "all" or a list of isolation levels',
    })
    .optional(),
  input: z.record(z.string(), z.unknown(), { error: 'expected a HookInput object' }).default({}),
  iterations: count(1, 100_000_000).default(BENCH_DEFAULTS.iterations),
  concurrency: count(1, 10_000).default(BENCH_DEFAULTS.concurrency),
  tenants: count(1, 10_000).default(BENCH_DEFAULTS.tenants),
  warmup: count(0, 1_000_000).default(BENCH_DEFAULTS.warmup),
  baselineSamples: count(1, 1_000_000).optional(),
  blocks: count(1, 10_000).default(BENCH_DEFAULTS.blocks),
  varyInput: z.boolean({ error: 'expected true or false' }).default(false),
  redactInput: z.boolean({ error: 'expected true or false' }).default(false),
  onProgress: z
    .custom<(done: number, total: number) => void>((v) => typeof v === 'function', {
      error: 'expected a function',
    })
    .optional(),
  signal: z.instanceof(AbortSignal, { error: 'expected an AbortSignal' }).optional(),
  pace: z
    .custom<() => void | Promise<void>>((v) => typeof v === 'function', { error: 'expected a function' })
    .optional(),
});

export interface ResolvedBenchOptions {
  /** The event of a one-event run; undefined with `replay`. */
  readonly event: string | undefined;
  readonly replay: string | undefined;
  readonly toolCallsPerSession: Readonly<Record<string, number>>;
  readonly isolation: 'all' | readonly string[] | undefined;
  readonly input: Readonly<Record<string, unknown>>;
  readonly iterations: number;
  readonly concurrency: number;
  readonly tenants: number;
  readonly warmup: number;
  readonly baselineSamples: number;
  /** Blocks actually used: at most `iterations`. */
  readonly blocks: number;
  readonly varyInput: boolean;
  readonly redactInput: boolean;
  readonly onProgress: ((done: number, total: number) => void) | undefined;
  readonly signal: AbortSignal | undefined;
}

/** Validates the bench's own options; executor options are validated by createExecutor. */
export function resolveBenchOptions(options: BenchOptions): ResolvedBenchOptions {
  if (typeof options !== 'object' || options === null) {
    throw new HookwardenError('invalid_options', `options: expected an object, got ${renderValue(options)}`);
  }
  refuseUnknownOptions(options, BENCH_OPTION_KEYS, '');
  const parsed = benchSchema.safeParse(options);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (i) =>
        `${i.path.join('.')}: ${i.message}, got ${renderValue((options as unknown as Record<string, unknown>)[String(i.path[0])])}`,
    );
    throw new HookwardenError('invalid_options', problems.join('; '), { problems });
  }
  const o = parsed.data;
  if ((o.event === undefined) === (o.replay === undefined))
    throw new HookwardenError(
      'invalid_options',
      o.event === undefined
        ? 'event: expected an event name (or replay: a recorded session)'
        : 'event and replay: give one of them; a replayed line names its own event',
    );
  if (o.replay !== undefined && options.input !== undefined)
    throw new HookwardenError(
      'invalid_options',
      'input and replay: give one; a replayed line is its own input',
    );
  if (o.toolCallsPerSession !== undefined && o.replay === undefined)
    throw new HookwardenError(
      'invalid_options',
      'toolCallsPerSession: only with replay (a recorded session)',
    );
  const baselineSamples =
    o.baselineSamples ??
    Math.min(BENCH_DEFAULTS.maxBaselineSamples, Math.max(BENCH_DEFAULTS.minBaselineSamples, o.iterations));
  return Object.freeze({
    event: o.event,
    replay: o.replay,
    toolCallsPerSession: Object.freeze(
      Object.assign(Object.create(null), o.toolCallsPerSession ?? BENCH_DEFAULTS.toolCallsPerSession),
    ),
    isolation: o.isolation,
    input: o.input,
    iterations: o.iterations,
    concurrency: o.concurrency,
    tenants: o.tenants,
    warmup: o.warmup,
    baselineSamples,
    blocks: Math.min(o.blocks, o.iterations),
    varyInput: o.varyInput,
    redactInput: o.redactInput,
    onProgress: o.onProgress,
    signal: o.signal,
  });
}
