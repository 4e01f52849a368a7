// `hookwarden serve`: the service (src/server/), its signals and its one line on stdout
// (`serve token` is serve-token.ts, `serve --check` serve-check.ts). Everything the service writes to
// stderr is a JSON log line, its start-up failures included (exit 1); stdout carries only
// {"listening": …}.
import { ISOLATION_LEVELS, type IsolationLevel } from '../../config/defaults.js';
import { tenantIdProblem } from '../../config/tenant-id.js';
import { HookwardenError } from '../../contract/hookwarden-error.js';
import type { ExecutorOptions, TenantIsolationOptions } from '../../executor/options.js';
import { AuthFileError } from '../../server/auth-file.js';
import { createServiceLogger, type ServiceLogger } from '../../server/logging.js';
import { ServeOptionsError } from '../../server/options.js';
import { type RunningServer, startServer } from '../../server/server.js';
import { sourceOptions } from '../executor-flags.js';
import { claimInterrupts, signalExitCode } from '../interrupt.js';
import { UsageError } from '../usage-error.js';
import { type DecisionLogFlags, lockDurationFromEnv, withDecisionLog } from './serve-env.js';

export interface ServeFlags extends DecisionLogFlags {
  config?: string[];
  userConfig?: string[];
  policy?: string[];
  allowHttpUrl?: string[];
  root?: string;
  listen?: string;
  socket?: string;
  auth?: string;
  metricsListen?: string;
  audit?: string;
  auditKey?: string;
  auditRequired?: boolean;
  watch?: boolean;
  queue?: string;
  queuePrefix?: string;
  tenantIsolation?: string[];
  drainTimeout?: string;
  headersTimeout?: string;
  requestTimeout?: string;
  keepAliveTimeout?: string;
  maxHeaderBytes?: string;
  maxEventStreams?: string;
  maxEventStreamsPerTenant?: string;
  logLevel?: string;
  /** `--check`: judge everything, start nothing (serve-check.ts). */
  check?: boolean;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Seconds from a flag (`30`, `0.5`) as whole milliseconds, or a UsageError naming the flag. */
function seconds(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+(\.\d+)?$/.test(value.trim()) ? Math.round(Number(value) * 1000) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new UsageError(
      `${flag}: expected a number of seconds above 0, e.g. 30 or 0.5, got ${JSON.stringify(value)}`,
    );
  return n;
}

/** A whole number from a flag, or a UsageError naming the flag (the bounds are the server's to check). */
function whole(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value.trim()))
    throw new UsageError(`${flag}: expected a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** The executor options serve's flags name (serve-check.ts judges the same). */
export function executorOptions(flags: ServeFlags): ServeFlagsResolved['executor'] {
  // --queue, else $HOOKWARDEN_QUEUE_URL: a URL with a password stays off the command line (`ps`), and
  // never reaches a hook (HOOKWARDEN_* names are never passed on).
  const redisUrl = flags.queue ?? (process.env.HOOKWARDEN_QUEUE_URL || undefined);
  const sources = sourceOptions(flags);
  if (sources.config.length === 0 && (flags.policy ?? []).length === 0)
    throw new UsageError(
      'serve needs at least one --config <file> (or --policy <file>); see `hookwarden serve --help`',
    );
  return {
    ...sources,
    tenantIsolation: tenantIsolationFlags(flags.tenantIsolation ?? []),
    // A local daemon (--socket) answers for files its clients edit: it watches them unless told not to.
    ...((flags.watch ?? flags.socket !== undefined) ? { watch: true } : {}),
    ...(redisUrl !== undefined || flags.queuePrefix !== undefined
      ? {
          queue: {
            ...(redisUrl !== undefined ? { redis: redisUrl } : {}),
            ...(flags.queuePrefix !== undefined ? { prefix: flags.queuePrefix } : {}),
            ...lockDurationFromEnv(),
          },
        }
      : {}),
  };
}

/** `--tenant-isolation [tenant=]level`, repeated; tenants default to namespace in serve. */
function tenantIsolationFlags(values: readonly string[]): TenantIsolationOptions {
  const out: { default: IsolationLevel; tenants: Record<string, IsolationLevel> } = {
    default: 'namespace',
    tenants: {},
  };
  for (const v of values) {
    const eq = v.lastIndexOf('=');
    const level = v.slice(eq + 1);
    const tenant = eq < 0 ? undefined : v.slice(0, eq);
    if (!(ISOLATION_LEVELS as readonly string[]).includes(level))
      throw new UsageError(
        `--tenant-isolation: expected process, contained or namespace (or tenant=level), got ${JSON.stringify(v)}`,
      );
    if (tenant === undefined) out.default = level as IsolationLevel;
    else {
      const problem = tenantIdProblem(tenant);
      if (problem !== undefined) throw new UsageError(`--tenant-isolation ${v}: ${problem}`);
      out.tenants[tenant] = level as IsolationLevel;
    }
  }
  return out;
}

type ServeFlagsResolved = { executor: Omit<ExecutorOptions, 'onWarning' | 'onReload'> };

/** The message of a start-up failure, or undefined when the error is not one of ours. */
function startupProblem(err: unknown): string | undefined {
  if (err instanceof AuthFileError) return `--auth: ${err.message}`;
  if (err instanceof ServeOptionsError || err instanceof UsageError || err instanceof HookwardenError)
    return err.message;
  return undefined;
}

/** What startServer is given: the flags, each checked. */
function serverOptions(flags: ServeFlags): Parameters<typeof startServer>[0] {
  return {
    executor: withDecisionLog(executorOptions(flags), flags),
    listen: flags.listen,
    socket: flags.socket,
    metricsListen: flags.metricsListen,
    authFile: flags.auth,
    drainTimeoutMs: seconds('--drain-timeout', flags.drainTimeout),
    headersTimeoutMs: seconds('--headers-timeout', flags.headersTimeout),
    requestTimeoutMs: seconds('--request-timeout', flags.requestTimeout),
    keepAliveTimeoutMs: seconds('--keep-alive-timeout', flags.keepAliveTimeout),
    maxHeaderBytes: whole('--max-header-bytes', flags.maxHeaderBytes),
    maxEventStreams: whole('--max-event-streams', flags.maxEventStreams),
    maxEventStreamsPerTenant: whole('--max-event-streams-per-tenant', flags.maxEventStreamsPerTenant),
  };
}

// A bug must not end the service with a stack trace in the middle of the JSON logs: one fatal line
// (without the error's message, which may quote a request, unless HOOKWARDEN_DEBUG=1), then exit 1.
function crashHandler(logger: ServiceLogger['logger'], flush: () => void): (err: unknown) => never {
  return (err: unknown) => {
    const e = err instanceof Error ? err : new Error(String(err));
    const message = process.env.HOOKWARDEN_DEBUG === '1' ? `: ${e.message}` : '';
    logger.fatal(
      { errorName: e.name, stack: e.stack?.split('\n').slice(1).join('\n') },
      `internal error${message}; exiting`,
    );
    flush();
    process.exit(1);
  };
}

export async function runServe(flags: ServeFlags): Promise<number> {
  const level = flags.logLevel ?? 'info';
  if (!LEVELS.includes(level))
    throw new UsageError(`--log-level: expected one of ${LEVELS.join(', ')}, got ${JSON.stringify(level)}`);
  const { logger, flush } = createServiceLogger(level);
  let server: RunningServer | undefined;
  let early: NodeJS.Signals | undefined;
  let stopped: (code: number) => void = () => {};
  const exit = new Promise<number>((resolve) => (stopped = resolve));
  claimInterrupts((signal, repeated) => {
    if (repeated || (server === undefined && early !== undefined)) {
      logger.warn({ signal }, 'second signal: killing the running hooks');
      const now = () => {
        flush();
        process.exit(signalExitCode(signal));
      };
      (server?.kill() ?? Promise.resolve()).then(now, now);
      return;
    }
    if (server === undefined) {
      early = signal; // starting: stop as soon as it has started
      logger.info({ signal }, 'signal received while starting: stopping once started');
      return;
    }
    logger.info({ signal }, 'signal received: draining');
    server.shutdown().then(
      () => stopped(0),
      (err: unknown) => {
        logger.error({ errorName: (err as Error).name }, `shutdown failed: ${(err as Error).message}`);
        stopped(1);
      },
    );
  });
  const crash = crashHandler(logger, flush);
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  // SIGHUP reloads (systemd's ExecReload); before the server runs there is nothing to reload.
  const onHangup = () => {
    server?.reload().catch((err: unknown) => logger.error(`reload failed: ${(err as Error).message}`));
  };
  process.on('SIGHUP', onHangup);
  try {
    if (flags.listen === undefined && flags.socket === undefined)
      throw new UsageError(
        'serve needs --listen <host:port> (e.g. --listen 127.0.0.1:8080) or --socket <path> (e.g. --socket "$XDG_RUNTIME_DIR/hookwarden.sock")',
      );
    server = await startServer(serverOptions(flags), logger);
  } catch (err) {
    const problem = startupProblem(err);
    if (problem === undefined) throw err;
    logger.fatal(problem);
    flush();
    process.off('SIGHUP', onHangup);
    return 1;
  }
  if (early !== undefined) {
    await server.shutdown();
  } else {
    const line = {
      ...(server.url !== '' ? { listening: server.url } : {}),
      ...(server.socketPath !== undefined ? { socket: server.socketPath } : {}),
      ...(server.metricsUrl !== undefined ? { metrics: server.metricsUrl } : {}),
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
  const code = early !== undefined ? 0 : await exit;
  process.off('SIGHUP', onHangup);
  flush();
  return code;
}
