// The service's listeners: the API routes on one app, the app of the Unix socket (the operator's,
// with the config-identity check), and listening on an address or a socket with errors that say why.
import type { FastifyInstance } from 'fastify';
import { digestNow, type LoadRead, readsMismatch } from '../config/read-log.js';
import {
  CONFIG_IDENTITY_HEADER,
  CONFIG_READS_HEADER,
  CONFIG_READS_PATH,
  readsDigest,
} from './config-identity.js';
import type { ServerContext } from './context.js';
import { ApiError } from './errors.js';
import { createHttpApp } from './http-app.js';
import { addressUrl } from './listen-address.js';
import { ServeOptionsError } from './options.js';
import { adminRoutes } from './routes/admin.js';
import { catalogueRoutes } from './routes/catalogue.js';
import { dispatchRoutes } from './routes/dispatch.js';
import { healthRoutes } from './routes/health.js';
import { prepareSocketPath, restrictSocket } from './unix-socket.js';

/** The routes of the API, on one listener. */
export function addApiRoutes(app: FastifyInstance, ctx: ServerContext): void {
  healthRoutes(app, ctx);
  dispatchRoutes(app, ctx);
  catalogueRoutes(app, ctx);
  adminRoutes(app, ctx);
}

/**
 * The API on the Unix socket: its callers are the operator (the file system decided who may
 * connect), and a dispatch that names a configuration (CONFIG_IDENTITY_HEADER) must name this one,
 * and carry the digest of what it loaded as the client reads it now (CONFIG_READS_HEADER).
 */
export function socketApp(
  ctx: ServerContext,
  identity: string | undefined,
  reads: () => readonly LoadRead[],
): FastifyInstance {
  const app = createHttpApp({ ...ctx, tokens: () => undefined });
  const stale = new StaleReload(ctx);
  app.addHook('onRequest', (request, _reply, done) => {
    const claimed = request.headers[CONFIG_IDENTITY_HEADER];
    if (claimed === undefined) return done();
    if (claimed !== identity)
      return done(
        new ApiError(
          409,
          'config_mismatch',
          'this server runs another configuration (config files, policy files or sandbox root) than the one named in x-hookwarden-config',
        ),
      );
    if (request.headers[CONFIG_READS_HEADER] === readsDigest(reads())) return done();
    stale.check(reads());
    done(
      new ApiError(
        409,
        'config_changed',
        `a file this server loaded its configuration from changed since (or ${CONFIG_READS_HEADER} is missing): it answers only for what is on disk; it reloads when it watches its files`,
      ),
    );
  });
  app.get(CONFIG_READS_PATH, { config: { access: 'public' } }, async () => ({
    reads: reads().map((r) => ({ kind: r.kind, path: r.path })),
  }));
  addApiRoutes(app, ctx);
  return app;
}

/** On a stale digest, a reload now if the files did change (at most one a second; --no-watch too). */
class StaleReload {
  #last = 0;
  constructor(readonly ctx: ServerContext) {}
  check(reads: readonly LoadRead[]): void {
    const now = Date.now();
    if (now - this.#last < 1000) return;
    this.#last = now;
    if (
      readsMismatch(
        reads,
        reads.map((r) => digestNow(r.kind, r.path)),
      ) === undefined
    )
      return;
    this.ctx.reload().catch(() => {}); // closing meanwhile: nothing to reload
  }
}

/** Listens on HOST:PORT; resolves with its URL, or rejects with a ServeOptionsError that says why not. */
export async function listenTcp(
  app: FastifyInstance,
  at: { host: string; port: number },
  flag: string,
): Promise<string> {
  try {
    await app.listen({ host: at.host, port: at.port });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? 'the address is in use'
        : code === 'EADDRNOTAVAIL'
          ? 'no interface has this address'
          : String(code ?? (err as Error).message);
    throw new ServeOptionsError(`${flag} ${at.host}:${at.port}: cannot listen: ${why}`);
  }
  const bound = app.server.address();
  const port = typeof bound === 'object' && bound !== null ? bound.port : at.port;
  return addressUrl(at.host, port);
}

/** Listens on a Unix socket created 0600; resolves with its absolute path. */
export async function listenSocket(app: FastifyInstance, path: string): Promise<string> {
  let abs: string;
  try {
    abs = await prepareSocketPath(path);
  } catch (err) {
    throw new ServeOptionsError(`--socket ${(err as Error).message}`);
  }
  // Created 0600 (no moment in which others may connect), and made so again after listening.
  const umask = process.umask(0o177);
  try {
    await app.listen({ path: abs });
  } finally {
    process.umask(umask);
  }
  restrictSocket(abs);
  return abs;
}
