// Options of `hookwarden serve` (and startServer): validated once, into a frozen, fully-defaulted
// form. Durations are milliseconds here; the CLI reads seconds (`--drain-timeout 30`).
import { z } from 'zod';
import { renderValue } from '../config/diagnostics.js';
import { optionKeys, unknownOptionProblems } from '../config/option-keys.js';
import { HookwardenError } from '../contract/hookwarden-error.js';
import { EXECUTOR_OPTION_KEYS, type ExecutorOptions } from '../executor/options.js';
import { isLoopback, type ListenAddress, parseListenAddress } from './listen-address.js';

/** Defaults of the service (pinned by test/server/options.test.ts). */
export const SERVE_DEFAULTS = Object.freeze({
  /** How long in-flight dispatches may take to finish after SIGTERM/SIGINT before they are aborted. */
  drainTimeoutMs: 30_000,
  /** Time a client has to send its request headers (slowloris). */
  headersTimeoutMs: 10_000,
  /** Time a client has to send its whole request, body included. */
  requestTimeoutMs: 30_000,
  /** An idle keep-alive connection is closed after this (above common load balancers' 60 s). */
  keepAliveTimeoutMs: 72_000,
  /** Largest request head (request line and headers); past it the answer is 431. */
  maxHeaderBytes: 16 * 1024,
  /** `Retry-After` of a 429 (a tenant's queue is full), seconds. */
  retryAfterSeconds: 1,
  /** Event streams (GET /v1/events) open at once on this server. */
  maxEventStreams: 256,
  /** Event streams one tenant may hold open at once on this server. */
  maxEventStreamsPerTenant: 8,
});

export interface ServeOptions {
  /** Executor options (config, policy, root, audit, watch…); `onWarning`/`onReload` are the server's. */
  readonly executor: Omit<ExecutorOptions, 'onWarning' | 'onReload'>;
  /** `HOST:PORT` of the API (port 0: a free port). At least one of listen and socket. */
  readonly listen?: string | undefined;
  /**
   * A Unix socket for local clients (the Claude Code adapter): in a directory only this user can
   * write, mode 0600; its callers are the operator, no token (unix-socket.ts).
   */
  readonly socket?: string | undefined;
  /** `HOST:PORT` of a second listener serving /metrics, /healthz and /readyz without authentication. */
  readonly metricsListen?: string | undefined;
  /** The auth file (`{"tokens": [...]}`); without it only a loopback address is accepted. */
  readonly authFile?: string | undefined;
  readonly drainTimeoutMs?: number | undefined;
  readonly headersTimeoutMs?: number | undefined;
  readonly requestTimeoutMs?: number | undefined;
  readonly keepAliveTimeoutMs?: number | undefined;
  readonly maxHeaderBytes?: number | undefined;
  readonly retryAfterSeconds?: number | undefined;
  /** Event streams open at once (each holds a Redis connection in Redis mode). Default 256. */
  readonly maxEventStreams?: number | undefined;
  /** Event streams one tenant may hold open at once. Default 8. */
  readonly maxEventStreamsPerTenant?: number | undefined;
}

export interface ResolvedServeOptions {
  readonly executor: ServeOptions['executor'];
  readonly listen: ListenAddress | undefined;
  readonly socket: string | undefined;
  readonly metricsListen: ListenAddress | undefined;
  readonly authFile: string | undefined;
  readonly drainTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  readonly maxHeaderBytes: number;
  readonly retryAfterSeconds: number;
  readonly maxEventStreams: number;
  readonly maxEventStreamsPerTenant: number;
}

/** A problem with the options (`invalid_options`): the message names the option and the value. */
export class ServeOptionsError extends HookwardenError {
  override readonly name = 'ServeOptionsError';
  override readonly code = 'invalid_options';
  constructor(message: string) {
    super('invalid_options', message);
  }
}

const ms = (max: number) =>
  z
    .number({ error: 'expected a number of milliseconds' })
    .int({ error: 'expected a whole number of milliseconds' })
    .min(1, { error: 'expected at least 1 ms' })
    .max(max, { error: `expected at most ${max} ms` });

const count = (max: number) =>
  z
    .number({ error: 'expected a whole number' })
    .int({ error: 'expected a whole number' })
    .min(1, { error: 'expected at least 1' })
    .max(max, { error: `expected at most ${max}` });

const schema = z.object({
  drainTimeoutMs: ms(24 * 3600_000).default(SERVE_DEFAULTS.drainTimeoutMs),
  headersTimeoutMs: ms(3600_000).default(SERVE_DEFAULTS.headersTimeoutMs),
  requestTimeoutMs: ms(3600_000).default(SERVE_DEFAULTS.requestTimeoutMs),
  keepAliveTimeoutMs: ms(3600_000).default(SERVE_DEFAULTS.keepAliveTimeoutMs),
  maxHeaderBytes: z
    .number({ error: 'expected a number of bytes' })
    .int({ error: 'expected a whole number of bytes' })
    .min(1024, { error: 'expected at least 1024 bytes' })
    .max(1024 * 1024, { error: 'expected at most 1 MiB' })
    .default(SERVE_DEFAULTS.maxHeaderBytes),
  retryAfterSeconds: z
    .number({ error: 'expected a number of seconds' })
    .int({ error: 'expected a whole number of seconds' })
    .min(1, { error: 'expected at least 1 s' })
    .max(3600, { error: 'expected at most 3600 s' })
    .default(SERVE_DEFAULTS.retryAfterSeconds),
  maxEventStreams: count(100_000).default(SERVE_DEFAULTS.maxEventStreams),
  maxEventStreamsPerTenant: count(100_000).default(SERVE_DEFAULTS.maxEventStreamsPerTenant),
});

function address(option: string, value: string): ListenAddress {
  const parsed = parseListenAddress(value);
  if ('problem' in parsed) throw new ServeOptionsError(`${option}: ${parsed.problem}`);
  return parsed;
}

const SERVE_OPTION_KEYS = optionKeys<ServeOptions>()([
  'executor',
  'listen',
  'socket',
  'metricsListen',
  'authFile',
  'drainTimeoutMs',
  'headersTimeoutMs',
  'requestTimeoutMs',
  'keepAliveTimeoutMs',
  'maxHeaderBytes',
  'retryAfterSeconds',
  'maxEventStreams',
  'maxEventStreamsPerTenant',
]);

/** Executor options the server sets itself (its log and its reload handling). */
const SERVER_OWNED = ['onWarning', 'onReload'];

export function resolveServeOptions(options: ServeOptions): ResolvedServeOptions {
  if (typeof options !== 'object' || options === null)
    throw new ServeOptionsError(`options: expected an object, got ${renderValue(options)}`);
  const unknown = unknownOptionProblems(options, SERVE_OPTION_KEYS, '');
  if (unknown.length > 0) throw new ServeOptionsError(unknown.join('; '));
  if (typeof options.executor !== 'object' || options.executor === null)
    throw new ServeOptionsError(
      `executor: expected the executor's options { config, policy, … }, got ${renderValue(options.executor)}`,
    );
  const owned = SERVER_OWNED.filter((k) => Object.hasOwn(options.executor, k));
  if (owned.length > 0)
    throw new ServeOptionsError(
      `executor.${owned[0]}: set by the server (diagnostics go to its log), not an option of serve`,
    );
  const executorUnknown = unknownOptionProblems(options.executor, EXECUTOR_OPTION_KEYS, 'executor');
  if (executorUnknown.length > 0) throw new ServeOptionsError(executorUnknown.join('; '));
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const parsed = schema.safeParse(defined);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    const key = String(i.path[0]);
    throw new ServeOptionsError(`${key}: ${i.message}, got ${renderValue(defined[key])}`);
  }
  const o = parsed.data;
  if (o.headersTimeoutMs > o.requestTimeoutMs)
    throw new ServeOptionsError(
      `headersTimeoutMs (${o.headersTimeoutMs}) must not exceed requestTimeoutMs (${o.requestTimeoutMs}): the headers are part of the request`,
    );
  if (options.listen === undefined && options.socket === undefined)
    throw new ServeOptionsError('listen: give an address to listen on (or a socket), e.g. 127.0.0.1:8080');
  const listen = options.listen === undefined ? undefined : address('listen', options.listen);
  if (listen !== undefined && options.authFile === undefined && !isLoopback(listen.host))
    throw new ServeOptionsError(
      `listen: ${options.listen} is reachable from other machines, and without --auth anyone could dispatch and reload; give --auth <file> (tokens from \`hookwarden serve token\`) or listen on 127.0.0.1`,
    );
  return Object.freeze({
    executor: options.executor,
    listen,
    socket: options.socket,
    metricsListen:
      options.metricsListen === undefined ? undefined : address('metricsListen', options.metricsListen),
    authFile: options.authFile,
    ...o,
  });
}
