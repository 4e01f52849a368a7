// startServer: the service's life. Start: read the auth file, create the executor, warm its worker
// pools, listen. Run: dispatch, reload, report. Stop (drain): refuse new dispatches (503) while the
// running ones finish, bounded by the drain timeout (then they are aborted and answer interrupted),
// close the listeners and the executor; the audit file has every record by then (it is written
// synchronously, before each dispatch answers). Kill: close the executor at once (hooks killed).
import type { FastifyInstance } from 'fastify';
import { tenantLabel } from '../contract/tenant-label.js';
import type { ExecutorInternals } from '../executor/api.js';
import { createExecutor, type Executor } from '../executor/executor.js';
import { internalsOf } from '../executor/internals.js';
import type { ReloadResult } from '../executor/reload.js';
import { AuthFileError, readAuthFile } from './auth-file.js';
import { configIdentity } from './config-identity.js';
import { Connections } from './connections.js';
import type { ServeReloadResult, ServerContext } from './context.js';
import { Drain } from './drain.js';
import { ApiError } from './errors.js';
import { createHttpApp, requestGone } from './http-app.js';
import { addApiRoutes, listenSocket, listenTcp, socketApp } from './listeners.js';
import { type Logger, logDecisionLog, logDiagnostic } from './logging.js';
import { ServerMetrics } from './metrics.js';
import { type ResolvedServeOptions, resolveServeOptions, type ServeOptions } from './options.js';
import { metricsRoute } from './routes/admin.js';
import { healthRoutes } from './routes/health.js';
import { StreamSlots } from './stream-slots.js';
import { TenantAdmission } from './tenant-admission.js';
import { TokenTable } from './tokens.js';
import { traceSettings } from './trace-settings.js';
import type { ServeTracing } from './tracing.js';

const asList = <T>(v: T | readonly T[] | undefined): readonly T[] =>
  v === undefined ? [] : Array.isArray(v) ? (v as readonly T[]) : [v as T];

export interface RunningServer {
  /** `http://HOST:PORT` of the API ('' when it listens on a socket only). */
  readonly url: string;
  /** The absolute path of --socket, if any. */
  readonly socketPath: string | undefined;
  /** `http://HOST:PORT` of --metrics-listen, if any. */
  readonly metricsUrl: string | undefined;
  /** Reloads the configuration and the auth file (SIGHUP, POST /v1/reload). */
  reload(): Promise<ServeReloadResult>;
  /** Drains and stops (see the file comment); resolves once everything is closed. Idempotent. */
  shutdown(): Promise<void>;
  /** Stops now: running hooks are killed. */
  kill(): Promise<void>;
}

/** Bound on the other requests still running once no dispatch runs (a slow client mid-request). */
const CLOSE_GRACE_MS = 5_000;

function loadTokens(path: string | undefined): TokenTable | undefined {
  return path === undefined ? undefined : new TokenTable(readAuthFile(path));
}

/** Waits until every QuickJS worker thread has answered once (when the configuration has JS hooks). */
async function warmPools(internals: ExecutorInternals): Promise<void> {
  const js = internals.pool.js;
  await Promise.all(Array.from({ length: js.threads }, () => js.stats()));
}

class Server implements RunningServer {
  url = '';
  socketPath: string | undefined;
  metricsUrl: string | undefined;
  readonly #o: ResolvedServeOptions;
  readonly #logger: Logger;
  readonly #drain = new Drain();
  #tokens: TokenTable | undefined;
  #tenants: ReadonlySet<string> = new Set();
  #executor!: Executor;
  #tracing: ServeTracing | undefined;
  #metrics!: ServerMetrics;
  #apps: FastifyInstance[] = [];
  #ready = false;
  #closing: Promise<void> | undefined;

  constructor(o: ResolvedServeOptions, logger: Logger) {
    this.#o = o;
    this.#logger = logger;
  }

  async start(): Promise<void> {
    this.#tokens = loadTokens(this.#o.authFile);
    this.#tracing = await this.#startTracing();
    this.#executor = await createExecutor({
      // Tenants' hooks are third-party code: namespace isolation unless the operator lowers it.
      tenantIsolation: 'namespace',
      ...(this.#tracing === undefined ? {} : { tracer: this.#tracing.tracer }),
      ...this.#o.executor,
      onWarning: (d) => logDiagnostic(this.#logger, d, (t) => tenantLabel(t, (x) => this.#tenants.has(x))),
      onReload: (r) => this.#onReload(r),
    });
    const internals = internalsOf(this.#executor);
    this.#tenants = new Set(this.#executor.tenants);
    this.#warnUnknownTenants();
    this.#metrics = new ServerMetrics({
      load: () => ({ command: internals.pool.command.load(), js: internals.pool.js.load() }),
      tenants: () => this.#tenants,
      inFlight: () => this.#drain.inFlight,
      draining: () => this.#drain.draining,
      queue: () => internals.queue.status(),
      decisionLog: () => internals.decisionLog(),
    });
    // Logged by the executor (onWarning above); counted here.
    this.#executor.on('audit.failed', (e) => this.#metrics.countAuditFailure(e.denied));
    // The sink's trouble and return: logged here (counted by the metrics, from its counts).
    this.#executor.on('decision-log', (p) => logDecisionLog(this.#logger, p));
    const ctx: ServerContext = {
      connections: new Connections((request) => requestGone(ctx, request)),
      executor: this.#executor,
      pool: internals.pool,
      generation: internals.generation,
      drain: this.#drain,
      metrics: this.#metrics,
      logger: this.#logger,
      options: this.#o,
      maxBodyBytes: internals.generation().limits.maxInputBytes,
      tokens: () => this.#tokens,
      notReady: () => this.#notReady(),
      reload: () => this.reload(),
      feed: internals.queue.feed,
      queueStatus: () => internals.queue.status(),
      streams: new StreamSlots(this.#o.maxEventStreams, this.#o.maxEventStreamsPerTenant),
      admission: new TenantAdmission(internals.pool, internals.generation),
      traceContext: this.#tracing?.extract,
    };
    try {
      const api = this.#o.listen === undefined ? undefined : createHttpApp(ctx);
      if (api !== undefined) {
        this.#apps.push(api);
        addApiRoutes(api, ctx);
      }
      const metrics = this.#o.metricsListen === undefined ? undefined : createHttpApp(ctx);
      if (metrics !== undefined) {
        this.#apps.push(metrics);
        healthRoutes(metrics, ctx);
        metricsRoute(metrics, ctx, 'public');
      }
      const { executor } = this.#o;
      const identity = configIdentity(asList(executor.config), asList(executor.policy), executor.root);
      const local =
        this.#o.socket === undefined ? undefined : socketApp(ctx, identity, () => internals.reads());
      if (local !== undefined) this.#apps.push(local);
      await warmPools(internals);
      if (api !== undefined && this.#o.listen !== undefined)
        this.url = await listenTcp(api, this.#o.listen, '--listen');
      if (metrics !== undefined && this.#o.metricsListen !== undefined)
        this.metricsUrl = await listenTcp(metrics, this.#o.metricsListen, '--metrics-listen');
      if (local !== undefined && this.#o.socket !== undefined)
        this.socketPath = await listenSocket(local, this.#o.socket);
    } catch (err) {
      await this.kill();
      throw err;
    }
    this.#ready = true;
    this.#logger.info(
      { url: this.url, socket: this.socketPath, metricsUrl: this.metricsUrl, tokens: this.#tokens?.size },
      'listening',
    );
  }

  /** The SDK when the OTEL_* variables turn traces on (trace-settings.ts), unless the caller gave a tracer. */
  async #startTracing(): Promise<ServeTracing | undefined> {
    const settings = this.#o.executor.tracer === undefined ? traceSettings() : undefined;
    if (settings === undefined) return undefined;
    const { startTracing } = await import('./tracing.js');
    return startTracing(settings, this.#logger);
  }

  #warnUnknownTenants(): void {
    for (const t of this.#tokens?.tenants ?? [])
      if (!this.#tenants.has(t))
        this.#logger.warn(
          { tenant: tenantLabel(t, (x) => this.#tenants.has(x)), tokenTenant: t },
          'a token speaks for a tenant the configuration does not name: only trusted and policy hooks run for it',
        );
  }

  #notReady(): ApiError | undefined {
    if (this.#drain.draining) return new ApiError(503, 'draining', 'the server is draining');
    if (!this.#ready || this.#closing !== undefined)
      return new ApiError(503, 'closed', 'the server is not running');
    return undefined;
  }

  #onReload(r: ReloadResult): void {
    this.#metrics?.countReload('config', r.ok);
    if (r.ok) {
      this.#tenants = new Set(this.#executor.tenants);
      this.#logger.info({ generation: r.generation }, 'configuration reloaded');
    } else this.#logger.warn({ generation: r.generation }, r.reason);
  }

  async reload(): Promise<ServeReloadResult> {
    const config = await this.#executor.reload();
    if (this.#o.authFile === undefined) return config;
    let auth: ServeReloadResult['auth'];
    try {
      this.#tokens = loadTokens(this.#o.authFile);
      auth = { ok: true, tokens: this.#tokens!.size };
      this.#logger.info({ tokens: this.#tokens!.size }, 'auth file reloaded');
    } catch (err) {
      if (!(err instanceof AuthFileError)) throw err;
      auth = { ok: false, reason: `auth file refused, the tokens in force stay: ${err.message}` };
      this.#logger.warn(auth.reason);
    }
    this.#metrics.countReload('auth', auth.ok);
    this.#warnUnknownTenants();
    return { ...config, auth };
  }

  shutdown(): Promise<void> {
    this.#drain.start();
    this.#closing ??= this.#drainAndClose();
    return this.#closing;
  }

  async #drainAndClose(): Promise<void> {
    this.#logger.info({ inFlight: this.#drain.inFlight, timeoutMs: this.#o.drainTimeoutMs }, 'draining');
    if ((await this.#drain.whenIdle(this.#o.drainTimeoutMs)) === 'timeout') {
      this.#logger.warn(
        { inFlight: this.#drain.inFlight },
        'drain timeout: aborting the dispatches still running',
      );
      this.#drain.abortAll('the drain timeout passed');
      await this.#drain.whenIdle(CLOSE_GRACE_MS);
    }
    // Async hooks the dispatches queued finish within the same bound (their events still reach the
    // streams); then the event streams end, so that no open stream holds the listener.
    const queue = internalsOf(this.#executor).queue;
    if ((await queue.drain(this.#o.drainTimeoutMs)) === 'timeout')
      this.#logger.warn({ pending: queue.status().pending }, 'drain timeout: aborting the async hooks left');
    queue.feed.endAll('the server is stopping');
    await this.#closeApps();
    await this.#executor.close();
    await this.#tracing?.shutdown(this.#o.drainTimeoutMs);
    this.#logger.info('stopped');
  }

  /** Stops listening, lets the requests still running (probes, scrapes) answer, then closes every connection. */
  async #closeApps(): Promise<void> {
    const closed = Promise.all(this.#apps.map((a) => a.close()));
    await this.#drain.whenIdle(CLOSE_GRACE_MS, 'requests');
    for (const a of this.#apps) a.server.closeAllConnections();
    await closed;
  }

  async kill(): Promise<void> {
    this.#drain.start();
    // A forced stop: nothing waits (the decision log's last batch included).
    await this.#executor?.close({ signal: AbortSignal.abort() });
    for (const a of this.#apps) a.server.closeAllConnections?.();
    await this.#tracing?.shutdown(1000);
  }
}

/** Starts the service; rejects (AuthFileError, HookwardenError, ServeOptionsError…) when it cannot. */
export async function startServer(options: ServeOptions, logger: Logger): Promise<RunningServer> {
  const server = new Server(resolveServeOptions(options), logger);
  await server.start();
  return server;
}
